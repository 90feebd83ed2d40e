import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiError } from './http.js';
import type { FakeGoogle } from './server.js';

/**
 * Joins the API fakes (GmailFake, FakeCalendarApi — separate servers with
 * static token maps) to FakeGoogle's OAuth grants, so tests run Gmail and
 * Calendar calls through tokens the real accounts layer obtained and
 * refreshed. FakeGoogle answers `/gmail/…` and `/calendar/…` itself: it checks
 * the bearer token is a live access token it issued, that the grant carries a
 * scope Google would accept for the method, then forwards the request to the
 * API fake with that account's static token in place of the OAuth one.
 */

const G = 'https://www.googleapis.com/auth/';
const FULL_MAIL = 'https://mail.google.com/';

/** Scopes each method accepts, per the "Authorization scopes" section of each method's reference page. */
const GMAIL_SCOPES = {
  read: [FULL_MAIL, `${G}gmail.modify`, `${G}gmail.readonly`, `${G}gmail.metadata`],
  send: [FULL_MAIL, `${G}gmail.modify`, `${G}gmail.compose`, `${G}gmail.send`],
  draft: [FULL_MAIL, `${G}gmail.modify`, `${G}gmail.compose`],
  modify: [FULL_MAIL, `${G}gmail.modify`],
  labels: [FULL_MAIL, `${G}gmail.modify`, `${G}gmail.labels`],
  // users.settings.filters.create/delete: "Requires the following OAuth scope: gmail.settings.basic".
  settings: [`${G}gmail.settings.basic`],
};
const CALENDAR_SCOPES = {
  read: [
    `${G}calendar`,
    `${G}calendar.readonly`,
    `${G}calendar.events`,
    `${G}calendar.events.readonly`,
  ],
  freeBusy: [
    `${G}calendar`,
    `${G}calendar.readonly`,
    `${G}calendar.freebusy`,
    `${G}calendar.events.freebusy`,
  ],
  write: [`${G}calendar`, `${G}calendar.events`],
};

function gmailNeeds(method: string, path: string): string[] {
  if (method === 'GET' && /\/settings\//.test(path))
    return [...GMAIL_SCOPES.read, ...GMAIL_SCOPES.settings];
  if (method === 'GET') return GMAIL_SCOPES.read;
  if (/\/settings\/filters(\/|$)/.test(path)) return GMAIL_SCOPES.settings;
  if (/\/labels(\/|$)/.test(path)) return GMAIL_SCOPES.labels;
  if (/\/messages\/send$/.test(path)) return GMAIL_SCOPES.send;
  // drafts.create/update/send/delete all take the draft scopes (users.drafts reference).
  if (/\/drafts(\/|$)/.test(path)) return GMAIL_SCOPES.draft;
  return GMAIL_SCOPES.modify;
}

function calendarNeeds(method: string, path: string): string[] {
  if (method === 'GET') return CALENDAR_SCOPES.read;
  if (/\/freeBusy$/.test(path)) return CALENDAR_SCOPES.freeBusy;
  return CALENDAR_SCOPES.write;
}

export interface BridgeTarget {
  /** The API fake's root (GmailFake.root, FakeCalendarApi.rootUrl); ends with '/'. */
  root: string;
  /** The static token the API fake knows, by account address. */
  tokens: Record<string, string>;
}

export interface BridgedRequest {
  api: 'gmail' | 'calendar';
  method: string;
  path: string;
  /** The account the OAuth token belongs to; absent when the token was refused. */
  email?: string;
  /** What FakeGoogle answered itself (401/403), or the API fake's status. */
  status: number;
}

/** Mounts the bridge on `google`; returns the log of bridged requests. */
export function bridgeGoogleApis(
  google: FakeGoogle,
  targets: { gmail?: BridgeTarget; calendar?: BridgeTarget },
): BridgedRequest[] {
  const log: BridgedRequest[] = [];
  google.use(async (req, res, url) => {
    const api =
      url.pathname.startsWith('/gmail/') || url.pathname === '/batch/gmail/v1'
        ? 'gmail'
        : url.pathname.startsWith('/calendar/')
          ? 'calendar'
          : null;
    const target = api ? targets[api] : undefined;
    if (!api || !target) return false;
    const method = req.method ?? 'GET';
    const entry: BridgedRequest = { api, method, path: url.pathname, status: 0 };
    log.push(entry);
    const grant = google.grantOf(req);
    if (!grant) {
      entry.status = 401;
      apiError(
        res,
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        'authError',
        {
          'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
        },
      );
      return true;
    }
    entry.email = grant.email;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    // A batch needs, for every call inside it, a scope that call accepts (each part is
    // authorized with the batch's token): refused whole here, which is no kinder than Google.
    const calls =
      url.pathname === '/batch/gmail/v1'
        ? [...body.toString('latin1').matchAll(/^([A-Z]+) (\/\S+)/gm)].map((m) => [m[1]!, m[2]!])
        : [[method, url.pathname]];
    const needsOf = (m: string, p: string) =>
      api === 'gmail' ? gmailNeeds(m, p) : calendarNeeds(m, p);
    const lacking = calls.find(([m, p]) => !grant.scopes.some((s) => needsOf(m!, p!).includes(s)));
    const needs = lacking ? needsOf(lacking[0]!, lacking[1]!) : [];
    const token = target.tokens[grant.email];
    if (!token || lacking) {
      entry.status = 403;
      apiError(
        res,
        403,
        'PERMISSION_DENIED',
        'Request had insufficient authentication scopes.',
        'insufficientPermissions',
        {
          'www-authenticate': `Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="${needs.join(' ')}"`,
        },
      );
      return true;
    }
    entry.status = await forward(
      req,
      res,
      new URL(url.pathname.slice(1) + url.search, target.root),
      token,
      body,
    );
    return true;
  });
  return log;
}

const PASSED_BACK = ['content-type', 'retry-after', 'www-authenticate'];

async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  to: URL,
  token: string,
  body: Buffer,
): Promise<number> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  const type = req.headers['content-type'];
  if (type) headers['content-type'] = type;
  const method = req.method ?? 'GET';
  const answer = await fetch(to, {
    method,
    headers,
    ...(body.length && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
  });
  const answered = Buffer.from(await answer.arrayBuffer());
  const out: Record<string, string> = {};
  for (const h of PASSED_BACK) {
    const v = answer.headers.get(h);
    if (v) out[h] = v;
  }
  res.writeHead(answer.status, out).end(answered);
  return answer.status;
}
