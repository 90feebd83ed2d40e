/*
 * A fake Google Calendar API v3 on loopback for tests (issue 7, "Must hold"):
 * the routes Airlock calls, answering in Google's documented shapes
 * (developers.google.com/calendar/api/v3/reference): calendarList, calendars,
 * events list/get/insert/patch/delete/instances, freeBusy, and errors as
 * `{ error: { code, message, errors: [{ domain, reason, message }], status } }`. Events carry an
 * etag that changes with every write, and patch/delete honour If-Match (412 conditionNotMet when
 * it does not match: developers.google.com/calendar/api/guides/version-resources).
 * Every request is recorded (with its query, e.g. sendUpdates) for assertions.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import {
  ApiError,
  CalendarStore,
  checkIfMatch,
  type Event,
  type FakeCalendarInfo,
} from './calendar-store.js';
import { inZone, merge, page, readBody, type FreeBusyBody } from './calendar-shapes.js';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  account: string | null;
  /** The If-Match header, when sent (conditional modification). */
  ifMatch?: string;
}

export interface FailRule {
  method?: string;
  /** Matched against the path (after /calendar/v3). */
  path?: RegExp;
  status: number;
  reason?: string;
  message?: string;
  retryAfter?: string;
  times?: number;
}

export interface FakeToken {
  email: string;
  /** When set, writes need .../auth/calendar or .../auth/calendar.events (403 insufficientPermissions otherwise). */
  scopes?: string[];
}

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  410: 'NOT_FOUND',
  412: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
};

export class FakeCalendarApi {
  readonly store = new CalendarStore();
  readonly requests: RecordedRequest[] = [];
  /** Free/busy of people outside the fake's accounts, by address. */
  readonly othersBusy = new Map<string, { start: string; end: string }[]>();
  private readonly failures: FailRule[] = [];
  private readonly hooks: { method: string; path: RegExp; run: () => void }[] = [];
  private server: Server | null = null;
  rootUrl = '';

  constructor(private readonly tokens: Record<string, FakeToken>) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.rootUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
    return this.rootUrl;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
    this.server = null;
  }

  addCalendar(owner: string, info: FakeCalendarInfo): void {
    this.store.add(owner, info);
  }

  /** Seeds an event as if created earlier (no request recorded). */
  seed(owner: string, calendarId: string, event: Event): Event {
    return this.store.insert(this.store.get(owner, calendarId), event, false);
  }

  /**
   * Runs `run` when the next matching request arrives, before it is answered: another client's
   * change landing between what Airlock read and what it writes.
   */
  beforeNext(method: string, path: RegExp, run: () => void): void {
    this.hooks.push({ method, path, run });
  }

  failNext(rule: FailRule): void {
    this.failures.push({ times: 1, ...rule });
  }

  /** Recorded requests matching method and path. */
  calls(method: string, path: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/^\/calendar\/v3/, '');
    const query = Object.fromEntries(url.searchParams);
    const method = req.method ?? 'GET';
    let body: unknown;
    try {
      const raw = await readBody(req);
      body = raw ? JSON.parse(raw) : undefined;
      const token = this.tokens[(req.headers.authorization ?? '').replace(/^Bearer /, '')];
      const ifMatch = req.headers['if-match'];
      this.requests.push({
        method,
        path,
        query,
        body,
        account: token?.email ?? null,
        ...(ifMatch !== undefined ? { ifMatch } : {}),
      });
      if (!token)
        throw new ApiError(
          401,
          'authError',
          'Request had invalid authentication credentials. Expected OAuth 2 access token.',
        );
      const fail = this.failures.find(
        (f) => (!f.method || f.method === method) && (!f.path || f.path.test(path)),
      );
      if (fail) {
        if (--fail.times! <= 0) this.failures.splice(this.failures.indexOf(fail), 1);
        if (fail.retryAfter) res.setHeader('Retry-After', fail.retryAfter);
        throw new ApiError(
          fail.status,
          fail.reason ?? 'backendError',
          fail.message ?? 'Injected failure',
        );
      }
      if (
        method !== 'GET' &&
        token.scopes &&
        !token.scopes.some((s) => /auth\/calendar(\.events)?$/.test(s)) &&
        path !== '/freeBusy'
      ) {
        throw new ApiError(
          403,
          'insufficientPermissions',
          'Request had insufficient authentication scopes.',
        );
      }
      // Another client's write landing while this request is in flight (see beforeNext).
      const hook = this.hooks.findIndex((h) => h.method === method && h.path.test(path));
      if (hook >= 0) this.hooks.splice(hook, 1)[0]!.run();
      const out = this.route(method, path, query, body as Event, token.email, ifMatch);
      if (out === undefined) {
        res.writeHead(204).end();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json; charset=UTF-8' })
        .end(JSON.stringify(out));
    } catch (err) {
      const e =
        err instanceof ApiError
          ? err
          : new ApiError(400, 'parseError', err instanceof Error ? err.message : String(err));
      res.writeHead(e.code, { 'content-type': 'application/json; charset=UTF-8' }).end(
        JSON.stringify({
          error: {
            code: e.code,
            message: e.message,
            errors: [{ domain: 'global', reason: e.reason, message: e.message }],
            status: STATUS[e.code] ?? 'UNKNOWN',
          },
        }),
      );
    }
  }

  private route(
    method: string,
    path: string,
    q: Record<string, string>,
    body: Event,
    owner: string,
    ifMatch?: string,
  ): unknown {
    const s = this.store;
    const seg = path.split('/').filter(Boolean).map(decodeURIComponent);
    if (seg[0] === 'users' && seg[2] === 'calendarList') {
      const entry = (c: FakeCalendarInfo) => ({
        kind: 'calendar#calendarListEntry',
        id: c.id,
        summary: c.summary,
        timeZone: c.timeZone,
        accessRole: c.accessRole,
        ...(c.primary ? { primary: true } : {}),
      });
      if (seg[3]) return entry(s.get(owner, seg[3]));
      return { kind: 'calendar#calendarList', items: s.of(owner).map(entry) };
    }
    if (seg[0] === 'freeBusy' && method === 'POST')
      return this.freeBusy(body as FreeBusyBody, owner);
    if (seg[0] !== 'calendars' || !seg[1]) throw new ApiError(404, 'notFound', 'Not Found');
    const cal = s.get(owner, seg[1]);
    if (seg.length === 2)
      return {
        kind: 'calendar#calendar',
        id: cal.id,
        summary: cal.summary,
        timeZone: cal.timeZone,
      };
    const meet = q.conferenceDataVersion === '1';
    const zone = q.timeZone ?? cal.timeZone;
    const shown = (e: Event) => inZone(e, zone);
    if (seg.length === 3 && method === 'GET') {
      const single = q.singleEvents === 'true';
      if (q.orderBy === 'startTime' && !single)
        throw new ApiError(
          400,
          'invalid',
          'The requested ordering is not available for the particular query.',
        );
      const all = s.list(cal, {
        timeMin: q.timeMin,
        timeMax: q.timeMax,
        singleEvents: single,
        showDeleted: q.showDeleted === 'true',
        text: q.q,
      });
      // Like Google, the list's timeZone is the one the request asked for when it asked (issue 18.1).
      return {
        kind: 'calendar#events',
        summary: cal.summary,
        timeZone: zone,
        accessRole: cal.accessRole,
        ...page(all.map(shown), q),
      };
    }
    const attachments = q.supportsAttachments === 'true';
    if (seg.length === 3 && method === 'POST') return s.insert(cal, body, meet, attachments);
    const id = seg[3]!;
    if (seg[4] === 'instances') {
      const master = s.find(cal, id);
      const max = q.timeMax ? Date.parse(q.timeMax) : Infinity;
      const min = q.timeMin ? Date.parse(q.timeMin) : -Infinity;
      const items = s
        .instances(cal, master, max, q.showDeleted === 'true')
        .filter((i) => Date.parse(i.end?.dateTime ?? i.end?.date ?? '') > min);
      return { kind: 'calendar#events', timeZone: zone, ...page(items.map(shown), q) };
    }
    if (method === 'GET') return shown(s.find(cal, id));
    if (method === 'PATCH' || method === 'DELETE') checkIfMatch(s.find(cal, id), ifMatch);
    if (method === 'PATCH') return s.patch(cal, id, body, meet, attachments);
    if (method === 'DELETE') return void s.remove(cal, id);
    throw new ApiError(404, 'notFound', 'Not Found');
  }

  private freeBusy(body: FreeBusyBody, owner: string): unknown {
    const min = Date.parse(body.timeMin);
    const max = Date.parse(body.timeMax);
    const zone = body.timeZone ?? 'UTC';
    const fmt = (ms: number) =>
      DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true });
    const calendars: Record<string, unknown> = {};
    for (const { id } of body.items ?? []) {
      const own = [...this.store.calendars.values()].find(
        (c) =>
          (c.owner === owner && (c.id === id || (id === 'primary' && c.primary))) ||
          (c.primary && c.id === id),
      );
      const other = this.othersBusy.get(id);
      if (own)
        calendars[id] = {
          busy: merge(this.store.busy(own, min, max)).map((b) => ({
            start: fmt(b.start),
            end: fmt(b.end),
          })),
        };
      else if (other)
        calendars[id] = {
          busy: other.filter((b) => Date.parse(b.end) > min && Date.parse(b.start) < max),
        };
      else calendars[id] = { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] };
    }
    return { kind: 'calendar#freeBusy', timeMin: body.timeMin, timeMax: body.timeMax, calendars };
  }
}
