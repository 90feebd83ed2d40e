import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http } from './node-http.js';

/**
 * The 127.0.0.1 redirect listener of a native-app sign-in (RFC 8252 §7.3:
 * loopback IP literal, any port), shared by the Google consent (issue 5) and
 * remote MCP server sign-in (issue 10). One GET path; a callback counts only
 * when its `state` matches ours (RFC 6749 §10.12) — anything else gets an
 * error page and the listener keeps waiting. Exactly one callback is
 * accepted; the page it gets is the outcome of the caller's whole exchange,
 * so the user sees "signed in" only once tokens are saved. Deadlines and
 * closing belong to the callers.
 */

/** A page the browser is shown. `status` defaults to 200 when ok, else 400. */
export interface RedirectPage {
  ok: boolean;
  title: string;
  message: string;
  status?: number;
}

/** The listener's own pages; each caller words them for its flow. */
export interface ListenerPages {
  notFound: RedirectPage;
  wrongState: RedirectPage;
  alreadyUsed: RedirectPage;
  /** The caller's callback threw. */
  failed: (message: string) => RedirectPage;
  /**
   * When set, a callback with neither `code` nor `error` gets this page and
   * the listener keeps waiting; when absent, such a callback is accepted and
   * the caller decides.
   */
  incomplete?: RedirectPage;
}

/** Wording of the remote sign-in (issue 10); the default. */
const DEFAULT_PAGES: ListenerPages = {
  notFound: {
    status: 404,
    ok: false,
    title: 'Not found',
    message: 'This address only receives sign-in redirects.',
  },
  wrongState: {
    ok: false,
    title: 'Unknown sign-in',
    message:
      'This link does not belong to the sign-in Airlock is waiting for. Start the sign-in again from Airlock.',
  },
  alreadyUsed: {
    status: 409,
    ok: false,
    title: 'Already finished',
    message: 'This sign-in has already finished. You can close this tab.',
  },
  failed: (message) => ({ status: 500, ok: false, title: 'Sign-in failed', message }),
};

export interface LoopbackOptions {
  /** The flow's `state`; only a callback carrying it is accepted. */
  state: string;
  /** Answers the accepted callback; its page is what the browser shows. */
  onCallback: (params: URLSearchParams) => Promise<RedirectPage>;
  /** A fixed port to try first (a dynamic registration names an exact redirect URI); taken → any free port. */
  preferredPort?: number;
  /** Told when the preferred port was taken and another was used. */
  onPortFallback?: (port: number, error: string) => void;
  /** The callback path; `/callback` unless given. */
  path?: string;
  pages?: ListenerPages;
}

/**
 * Headers for every answer: nothing cached (the URL held a code), no referrer,
 * nothing executable, and no keep-alive — a later sign-in may listen on the
 * same port, and a pooled connection would still reach this closed listener.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  connection: 'close',
} as const;

export class LoopbackListener {
  private accepted = false;
  private closed = false;
  /** Rejected callbacks (wrong or missing state, incomplete answer); tests and logs read it. */
  rejected = 0;
  readonly redirectUri: string;
  private readonly pages: ListenerPages;
  private readonly path: string;

  private constructor(
    private readonly server: Server,
    private readonly o: LoopbackOptions,
    port: number,
  ) {
    this.path = o.path ?? '/callback';
    this.pages = o.pages ?? DEFAULT_PAGES;
    this.redirectUri = `http://127.0.0.1:${port}${this.path}`;
  }

  /** Listens on `preferredPort` when given and free, else on a free port. */
  static async open(o: LoopbackOptions): Promise<LoopbackListener> {
    const ref: { listener?: LoopbackListener } = {};
    const server = http.createServer((req, res) => void ref.listener?.handle(req, res));
    let port: number;
    try {
      port = await listen(server, o.preferredPort ?? 0);
    } catch (err) {
      if (!o.preferredPort) throw err;
      // A taken callback port is the classic failure of local OAuth helpers
      // (RFC 8252 §7.3: loopback redirects accept any port), so take another.
      port = await listen(server, 0);
      o.onPortFallback?.(port, (err as NodeJS.ErrnoException).code ?? String(err));
    }
    ref.listener = new LoopbackListener(server, o, port);
    return ref.listener;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Stops listening; a page still being written finishes first. */
  close(): void {
    this.accepted = true;
    if (this.closed) return;
    this.closed = true;
    this.server.close();
    this.server.closeIdleConnections();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const q = url.searchParams;
    if (req.method !== 'GET' || url.pathname !== this.path) return send(res, this.pages.notFound);
    if (!sameState(q.get('state') ?? '', this.o.state)) {
      this.rejected += 1;
      return send(res, this.pages.wrongState);
    }
    if (this.accepted) return send(res, this.pages.alreadyUsed);
    if (this.pages.incomplete && !q.get('code') && !q.get('error')) {
      this.rejected += 1;
      return send(res, this.pages.incomplete);
    }
    this.accepted = true;
    let page: RedirectPage;
    try {
      page = await this.o.onCallback(q);
    } catch (err) {
      page = this.pages.failed(err instanceof Error ? err.message : String(err));
    }
    send(res, page);
  }
}

function sameState(got: string, expected: string): boolean {
  const x = Buffer.from(got);
  const y = Buffer.from(expected);
  return x.length > 0 && x.length === y.length && timingSafeEqual(x, y);
}

function send(res: ServerResponse, page: RedirectPage): void {
  res.writeHead(page.status ?? (page.ok ? 200 : 400), PAGE_HEADERS);
  res.end(renderPage(page));
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** No script, no links, no remote assets. */
function renderPage(p: RedirectPage): string {
  const colour = p.ok ? '#1e7d32' : '#b3261e';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Airlock — ${escape(p.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f1f1f}
h1{font-size:1.4rem;color:${colour}}@media (prefers-color-scheme:dark){body{background:#1f1f1f;color:#eee}}</style>
</head><body><h1>${escape(p.title)}</h1><p>${escape(p.message)}</p></body></html>
`;
}
