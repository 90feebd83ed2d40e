import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The 127.0.0.1 redirect listener of a native-app sign-in (RFC 8252 §7.3:
 * loopback IP literal, any port). One GET path; a callback counts only when
 * its `state` matches ours (RFC 6749 §10.12) — anything else gets an error
 * page and the listener keeps waiting. The page shown is the outcome of the
 * whole exchange, so the user sees "signed in" only once tokens are saved.
 *
 * Written for remote servers; the Google flow (main/google/oauth) has its
 * own listener for now — the two could share one.
 */
export interface CallbackPage {
  ok: boolean;
  title: string;
  message: string;
}

export class LoopbackListener {
  private done = false;

  private constructor(
    private readonly server: Server,
    readonly redirectUri: string,
  ) {}

  /**
   * Listens on `preferredPort` when given and free (a dynamic registration
   * names an exact redirect URI), else on a free port.
   */
  static async open(o: {
    state: string;
    onCallback: (params: URLSearchParams) => Promise<CallbackPage>;
    preferredPort?: number;
    path?: string;
  }): Promise<LoopbackListener> {
    const path = o.path ?? '/callback';
    const expected = Buffer.from(o.state);
    const ref: { listener?: LoopbackListener } = {};
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const send = (status: number, page: CallbackPage) => {
        res.writeHead(status, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
          'x-content-type-options': 'nosniff',
          // No keep-alive: a later sign-in may listen on the same port, and a pooled connection
          // (browser or fetch) would still reach this closed listener.
          connection: 'close',
        });
        res.end(renderPage(page));
      };
      if (req.method !== 'GET' || url.pathname !== path)
        return send(404, {
          ok: false,
          title: 'Not found',
          message: 'This address only receives sign-in redirects.',
        });
      const got = Buffer.from(url.searchParams.get('state') ?? '');
      if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
        return send(400, {
          ok: false,
          title: 'Unknown sign-in',
          message:
            'This link does not belong to the sign-in Airlock is waiting for. Start the sign-in again from Airlock.',
        });
      }
      const holder = ref.listener;
      if (!holder || holder.done)
        return send(409, {
          ok: false,
          title: 'Already finished',
          message: 'This sign-in has already finished. You can close this tab.',
        });
      holder.done = true;
      void o.onCallback(url.searchParams).then(
        (page) => send(page.ok ? 200 : 400, page),
        (err: unknown) =>
          send(500, {
            ok: false,
            title: 'Sign-in failed',
            message: err instanceof Error ? err.message : String(err),
          }),
      );
    });
    const port = await listen(server, o.preferredPort).catch(() =>
      o.preferredPort ? listen(server, 0) : Promise.reject(new Error('no free port')),
    );
    ref.listener = new LoopbackListener(server, `http://127.0.0.1:${port}${path}`);
    return ref.listener;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Stops listening; a page still being written finishes first. */
  close(): void {
    this.done = true;
    this.server.close();
    this.server.closeIdleConnections();
  }
}

function listen(server: Server, port: number | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port ?? 0, '127.0.0.1', () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function renderPage(p: CallbackPage): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Airlock — ${escape(p.title)}</title>
<style>body{font:16px system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#222}h1{font-size:1.4em;color:${p.ok ? '#1a7f37' : '#b42318'}}</style></head>
<body><h1>${escape(p.title)}</h1><p>${escape(p.message)}</p></body></html>`;
}
