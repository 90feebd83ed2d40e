import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CONTROL_METHODS,
  ControlError,
  type ControlApi,
  type ControlMethod,
  type CoreEvent,
} from '../../common/contract/index.js';
import type { CoreEvents } from '../platform/events.js';
import type { Logger } from '../platform/log.js';
import { isVaultError } from '../platform/vault/vault.js';
import { looseningSummary } from './loosening.js';
import type { PolicyChanges } from './policy-changes.js';
import { BodyTooLargeError, bearerToken, parseJsonBody, readBody, sendJson } from './guards.js';

export interface ControlRoutesOptions {
  api: ControlApi;
  events: CoreEvents;
  logger: Logger;
  controlToken: string;
  /** Recognises agent tokens so they get a clear 403 rather than a bare 401. */
  isAgentToken: (token: string) => boolean;
  /**
   * Issue 17.7: loosening asked for over HTTP by anything but Airlock's own
   * page waits here for the user. `confirmIn`: 'window' when the desktop
   * window exists (then nothing over HTTP may confirm), 'page' when headless
   * (Airlock's own page is the window).
   */
  policyChanges?: PolicyChanges;
  confirmIn?: 'window' | 'page';
  /** Records an "always allow" grant for the tool's public name (a confirmed policy change). */
  grant?: (agent: string, tool: string, until: string | null) => void;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The headless transport of ControlApi: `POST /api/rpc {method, params}`
 * and `GET /api/events` (server-sent events), both behind the control token.
 * The control token is never an agent token, so an agent cannot approve its
 * own call (issue 3, item 8).
 */
export class ControlRoutes {
  private readonly tokenDigest: Buffer;
  private readonly streams = new Set<ServerResponse>();

  constructor(private readonly o: ControlRoutesOptions) {
    this.tokenDigest = digest(o.controlToken);
  }

  /** Returns false when the request was refused (and answered). */
  authorize(req: IncomingMessage, res: ServerResponse): boolean {
    const token = bearerToken(req);
    if (token && timingSafeEqual(digest(token), this.tokenDigest)) return true;
    if (token && this.o.isAgentToken(token)) {
      sendJson(res, 403, {
        error: 'FORBIDDEN',
        message: 'Agent tokens cannot use the control API.',
      });
    } else {
      sendJson(
        res,
        401,
        { error: 'UNAUTHORIZED', message: 'The control token is missing or wrong.' },
        { 'www-authenticate': 'Bearer realm="airlock-control"' },
      );
    }
    return false;
  }

  async rpc(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST')
      return sendJson(
        res,
        405,
        { error: 'METHOD_NOT_ALLOWED', message: 'Use POST.' },
        { allow: 'POST' },
      );
    let raw: Buffer;
    try {
      raw = await readBody(req, 1024 * 1024);
    } catch (err) {
      if (err instanceof BodyTooLargeError)
        return sendJson(res, 413, { error: 'TOO_LARGE', message: 'Request body too large.' });
      return sendJson(res, 400, {
        error: 'INVALID',
        message: 'The request body could not be read.',
      });
    }
    const body = raw.length === 0 ? ({ ok: true, value: {} } as const) : parseJsonBody(raw);
    if (!body.ok) {
      return sendJson(res, 400, {
        error: 'INVALID',
        message: `The body must be JSON: {"method": …, "params": [...]}. ${body.message}`,
      });
    }
    const call = body.value as { method?: unknown; params?: unknown } | null;
    const method = call?.method;
    if (typeof method !== 'string' || !(CONTROL_METHODS as readonly string[]).includes(method)) {
      return sendJson(res, 404, {
        error: 'NOT_FOUND',
        message: `Unknown control method ${String(method)}.`,
      });
    }
    const params = Array.isArray(call?.params) ? call.params : [];
    try {
      const fn = this.o.api[method as ControlMethod] as (...args: unknown[]) => Promise<unknown>;
      if (await this.heldForWindow(req, res, method, params, fn)) return;
      const result = await fn.apply(this.o.api, params);
      sendJson(res, 200, { result: result ?? null });
    } catch (err) {
      const { status, code, message } = describeError(err);
      if (status === 500) this.o.logger.error('control call failed', { method, error: message });
      sendJson(res, status, { error: code, message });
    }
  }

  /**
   * Issue 17.7: true when the call was answered here, because it loosens a
   * policy and must wait for the user's confirmation in the window, or because
   * it tries to give that confirmation from outside the window.
   */
  private async heldForWindow(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    params: unknown[],
    fn: (...args: unknown[]) => Promise<unknown>,
  ): Promise<boolean> {
    const changes = this.o.policyChanges;
    if (!changes) return false;
    // Airlock's own page (a same-origin fetch) acts as the window when there is no desktop window.
    // Any process with the control token could forge these headers: docs/security.md says so.
    const ownPage =
      this.o.confirmIn !== 'window' &&
      req.headers['sec-fetch-site'] === 'same-origin' &&
      req.headers.origin === `http://${req.headers.host ?? ''}`;
    if (ownPage) return false;
    if (method === 'decidePolicyChange') {
      sendJson(res, 403, {
        error: 'FORBIDDEN',
        message:
          "Policy changes are confirmed or rejected in Airlock's own window (the Tools page).",
      });
      return true;
    }
    if (method === 'decide' && isAlwaysAllow(params[1]) && this.o.grant) {
      // "Always allow" from outside the window: this call is allowed once now; the standing
      // grant waits for the user like any other loosening.
      const grant = this.o.grant;
      const until = typeof params[1].until === 'string' ? params[1].until : null;
      if (until !== null && Number.isNaN(Date.parse(until))) {
        sendJson(res, 400, { error: 'INVALID', message: '"until" must be an ISO date-time.' });
        return true;
      }
      const view = await this.o.api.decide(String(params[0]), { kind: 'allow_once' });
      changes.propose(
        `always allow ${view.tool} for agent "${view.agent}"${until ? ` until ${until}` : ''}`,
        async () => grant(view.agent, view.tool, until),
      );
      sendJson(res, 200, { result: view });
      return true;
    }
    const summary = await looseningSummary(this.o.api, method, params);
    if (!summary) return false;
    const change = changes.propose(summary, () => fn.apply(this.o.api, params));
    sendJson(res, 409, {
      error: 'CONFIRM_IN_WINDOW',
      message:
        `Waiting for you to confirm in Airlock's window (Tools page): ${summary}. ` +
        `Loosening a policy from outside the window needs your confirmation there. Change id: ${change.id}`,
      change,
    });
    return true;
  }

  events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': airlock events\n\n');
    this.streams.add(res);
    const send = (event: CoreEvent) => res.write(`data: ${JSON.stringify(event)}\n\n`);
    const off = this.o.events.subscribe(send);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    const done = () => {
      off();
      clearInterval(heartbeat);
      this.streams.delete(res);
    };
    req.on('close', done);
    res.on('close', done);
  }

  /** Ends open event streams so the server can close promptly. */
  closeStreams(): void {
    for (const res of this.streams) res.end();
    this.streams.clear();
  }
}

function isAlwaysAllow(d: unknown): d is { kind: 'always_allow'; until?: unknown } {
  return !!d && typeof d === 'object' && (d as { kind?: unknown }).kind === 'always_allow';
}

function describeError(err: unknown): { status: number; code: string; message: string } {
  if (err instanceof ControlError) {
    const status = {
      NOT_FOUND: 404,
      INVALID: 400,
      CONFLICT: 409,
      CONFIRM_REQUIRED: 409,
      CONFIRM_IN_WINDOW: 409,
      FORBIDDEN: 403,
      KEYCHAIN_UNAVAILABLE: 503,
      VAULT_LOCKED: 503,
      INTERNAL: 500,
    }[err.code];
    return { status, code: err.code, message: err.message };
  }
  if (isVaultError(err)) return { status: 503, code: err.code, message: err.message };
  return {
    status: 500,
    code: 'INTERNAL',
    message: err instanceof Error ? err.message : String(err),
  };
}
