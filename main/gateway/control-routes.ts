import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ControlApi, CoreEvent } from '../../common/contract/index.js';
import { OPEN_CODE_SPENT, OPEN_CODE_SPENT_MESSAGE } from '../../common/open-code.js';
import type { CoreEvents } from '../platform/events.js';
import type { Logger } from '../platform/log.js';
import { dispatchControl } from './control-dispatch.js';
import type { OpenCodes } from './control-open-codes.js';
import { BodyTooLargeError, bearerToken, parseJsonBody, readBody, sendJson } from './guards.js';
import type { LooseningGate } from './loosening-gate.js';

export interface ControlRoutesOptions {
  api: ControlApi;
  events: CoreEvents;
  logger: Logger;
  controlToken: string;
  /** Recognises agent tokens so they get a clear 403 rather than a bare 401. */
  isAgentToken: (token: string) => boolean;
  /**
   * Issue 17.7: loosening asked for over HTTP by anything but Airlock's own
   * page waits for the user. `confirmIn`: 'window' when the desktop window
   * exists (then nothing over HTTP may confirm), 'page' when headless
   * (Airlock's own page is the window).
   */
  gate?: LooseningGate;
  confirmIn?: 'window' | 'page';
  /** Open codes to redeem (control-open-codes.ts): the store the control socket mints into. */
  openCodes: OpenCodes;
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
    if (!postOnly(req, res)) return;
    const raw = await postBody(req, res, 1024 * 1024);
    if (!raw) return;
    // Depth-checked parse (issue 17.8): deep nesting is refused before recursion can blow up.
    const body = raw.length === 0 ? ({ ok: true, value: {} } as const) : parseJsonBody(raw);
    if (!body.ok) {
      return sendJson(res, 400, {
        error: 'INVALID',
        message: `The body must be JSON: {"method": …, "params": [...]}. ${body.message}`,
      });
    }
    // Airlock's own page (a same-origin fetch) acts as the window when there is no desktop window.
    const fromWindow =
      this.o.confirmIn !== 'window' &&
      req.headers['sec-fetch-site'] === 'same-origin' &&
      req.headers.origin === `http://${req.headers.host ?? ''}`;
    const gate = this.o.gate;
    const { status, body: answer } = await dispatchControl(
      this.o.api,
      body.value,
      this.o.logger,
      gate && ((method, params, run) => gate.hold(method, params, run, fromWindow)),
    );
    sendJson(res, status, answer);
  }

  /**
   * `POST /api/open-code {"code"}` → `{"token"}`: the control page trades the one-time code of
   * `airlock open` for the control token (common/open-code.ts). Needs no token, so it answers only
   * Airlock's own page — a same-origin fetch, whose Origin is this very host (the router has
   * already held Host and Origin to loopback) — and every refusal looks the same.
   */
  async redeemOpenCode(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!postOnly(req, res)) return;
    const fetchSite = req.headers['sec-fetch-site'];
    if (
      req.headers.origin !== `http://${req.headers.host ?? ''}` ||
      (fetchSite !== undefined && fetchSite !== 'same-origin')
    )
      return sendJson(res, 403, {
        error: 'FORBIDDEN_ORIGIN',
        message: "An open code is redeemed only by Airlock's own page.",
      });
    const raw = await postBody(req, res, 1024);
    if (!raw) return;
    const body = parseJsonBody(raw);
    const code = body.ok ? (body.value as { code?: unknown } | null)?.code : undefined;
    if (typeof code !== 'string')
      return sendJson(res, 400, { error: 'INVALID', message: 'The body must be {"code": "…"}.' });
    if (!this.o.openCodes.redeem(code, this.o.controlToken))
      return sendJson(res, 410, { error: OPEN_CODE_SPENT, message: OPEN_CODE_SPENT_MESSAGE });
    sendJson(res, 200, { token: this.o.controlToken });
  }

  events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': airlock events\n\n');
    this.streams.add(res);
    // Called inside the emitter's loop: a throw would go back into whatever emitted (the approval
    // engine, a server's notice) and the later subscribers would miss the event. One that cannot
    // be written (nested past the stack; servers' values are bounded before, json-values.ts) is
    // left out, and the stream goes on.
    const send = (event: CoreEvent) => {
      let data: string;
      try {
        data = JSON.stringify(event);
      } catch {
        return;
      }
      res.write(`data: ${data}\n\n`);
    };
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

/** A control route takes POST only: anything else is answered 405 here (false). */
function postOnly(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === 'POST') return true;
  sendJson(res, 405, { error: 'METHOD_NOT_ALLOWED', message: 'Use POST.' }, { allow: 'POST' });
  return false;
}

/** The request's body up to `limit` bytes, or undefined once a 413/400 has been answered. */
async function postBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
): Promise<Buffer | undefined> {
  try {
    return await readBody(req, limit);
  } catch (err) {
    if (err instanceof BodyTooLargeError)
      sendJson(res, 413, { error: 'TOO_LARGE', message: 'Request body too large.' });
    else sendJson(res, 400, { error: 'INVALID', message: 'The request body could not be read.' });
    return undefined;
  }
}
