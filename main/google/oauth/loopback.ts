import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PAGE_HEADERS, pages, renderPage, type Page } from './pages.js';

/** The query of the one callback that carried the right `state`. */
export interface CallbackParams {
  code?: string;
  error?: string;
  errorDescription?: string;
}

export interface LoopbackOptions {
  /** The flow's `state`; only a callback carrying it is accepted. */
  state: string;
  /** Answers the accepted callback; its page is what the browser shows. */
  onCallback: (params: CallbackParams) => Promise<Page>;
  /** A fixed port to try first; taken or absent → any free port. */
  preferredPort?: number;
  /** Told when the preferred port was taken and another was used. */
  onPortFallback?: (port: number, error: string) => void;
}

export const CALLBACK_PATH = '/oauth2/callback';

/**
 * The redirect target of the loopback flow (RFC 8252 §7.3; Google's
 * native-app guide): an HTTP listener on 127.0.0.1 only, on a free port.
 * It accepts exactly one callback with the right `state` and then closes;
 * anything else gets an error page and the listener keeps waiting.
 */
export class LoopbackListener {
  private server: Server | null = null;
  private accepted = false;
  private closed = false;
  /** Rejected callbacks (wrong or missing state); tests and logs read it. */
  rejected = 0;

  constructor(private readonly o: LoopbackOptions) {}

  async start(): Promise<{ port: number; redirectUri: string }> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    let port: number;
    try {
      port = await listen(server, this.o.preferredPort ?? 0);
    } catch (err) {
      if (!this.o.preferredPort) throw err;
      // A taken callback port is the classic failure of local OAuth helpers
      // (FIELD-NOTES, "Google"): Google accepts any loopback port, so take another.
      port = await listen(server, 0);
      this.o.onPortFallback?.(port, (err as NodeJS.ErrnoException).code ?? String(err));
    }
    return { port, redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}` };
  }

  /** Stops listening and drops idle keep-alive connections from the browser. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.server?.close();
    this.server?.closeAllConnections();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) return send(res, pages.notFound());
    if (this.accepted) return send(res, pages.alreadyUsed());
    const state = url.searchParams.get('state');
    if (!state || !sameState(state, this.o.state)) {
      this.rejected += 1;
      return send(res, pages.wrongState());
    }
    const params: CallbackParams = {};
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    const description = url.searchParams.get('error_description');
    if (code) params.code = code;
    if (error) params.error = error;
    if (description) params.errorDescription = description;
    if (!code && !error) {
      this.rejected += 1;
      return send(
        res,
        pages.failed(
          'Incomplete answer',
          'The answer from Google had neither a code nor an error. Airlock is still waiting.',
        ),
      );
    }
    this.accepted = true;
    let page: Page;
    try {
      page = await this.o.onCallback(params);
    } catch (err) {
      page = pages.failed('Connection failed', err instanceof Error ? err.message : String(err));
    }
    send(res, page, () => this.close());
  }
}

function sameState(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function send(res: ServerResponse, page: Page, then?: () => void): void {
  res.writeHead(page.status, { ...PAGE_HEADERS, connection: 'close' });
  res.end(renderPage(page), then);
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
