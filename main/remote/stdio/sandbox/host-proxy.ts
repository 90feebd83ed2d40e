import { connect, type Socket } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { http } from '../../../platform/node-http.js';
import { allows, connectHost, parseTarget, type HostRule, type Target } from './host-rules.js';

/**
 * The door out of a sandbox whose network is a host list (issue 35): an HTTP
 * proxy that opens a connection only to a listed host. `CONNECT host:port`
 * (HTTPS, and any TCP a client tunnels) gets a tunnel or a 403; a plain-HTTP
 * request in absolute form (`GET http://host/…`) is forwarded or refused the
 * same way. Every decision is made on the target as `parseTarget` normalizes
 * it, and the connection goes to exactly that host and port (host-rules.ts).
 *
 * On Linux it listens on a Unix socket bound into the sandbox (its only way
 * out, since the sandbox has its own network namespace); on macOS on a
 * loopback port, the only one the sandbox profile lets it reach.
 */
export interface HostProxyOptions {
  rules: readonly HostRule[];
  /** A refused target ("host:port"), for the server's status and the log. */
  onRefused?: (target: string) => void;
}

export class HostProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Duplex>();
  private rules: readonly HostRule[];

  constructor(private readonly o: HostProxyOptions) {
    this.rules = o.rules;
    this.server = http.createServer((req, res) => this.forward(req, res));
    this.server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.tunnel(req, socket, head),
    );
    this.server.on('connection', (s: Socket) => this.track(s));
  }

  /** New rules apply to new connections; open tunnels stay (they were allowed). */
  setRules(rules: readonly HostRule[]): void {
    this.rules = rules;
  }

  /** A Unix socket path, or a loopback port (0 = any); resolves with the port or path. */
  listen(where: { path: string } | { port: number }): Promise<string | number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      const done = () => {
        this.server.off('error', reject);
        const a = this.server.address();
        resolve(typeof a === 'string' ? a : (a?.port ?? 0));
      };
      if ('path' in where) this.server.listen(where.path, done);
      else this.server.listen(where.port, '127.0.0.1', done);
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(s: Duplex): void {
    this.sockets.add(s);
    s.once('close', () => this.sockets.delete(s));
  }

  private check(target: Target | undefined, raw: string): target is Target {
    if (target && allows(this.rules, target)) return true;
    this.o.onRefused?.(target ? `${target.host}:${target.port}` : raw.slice(0, 200));
    return false;
  }

  private tunnel(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const raw = req.url ?? '';
    const target = parseTarget(raw);
    if (!this.check(target, raw)) return refuse(socket, raw);
    const up = connect({ host: connectHost(target), port: target.port });
    this.track(up);
    up.once('connect', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => {
      if (!socket.destroyed && up.connecting)
        socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
    socket.on('error', () => up.destroy());
    socket.on('close', () => up.destroy());
    up.on('close', () => socket.destroy());
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const raw = req.url ?? '';
    let url: URL | undefined;
    try {
      url = /^http:\/\//i.test(raw) ? new URL(raw) : undefined;
    } catch {
      url = undefined;
    }
    const target = url ? parseTarget(url.host, 80) : undefined;
    if (!url || !this.check(target, url?.host ?? raw)) {
      res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' });
      res.end(refusal(url?.host ?? raw));
      return;
    }
    const up = http.request(
      {
        host: connectHost(target!),
        port: target!.port,
        method: req.method,
        path: url.pathname + url.search,
        headers: { ...req.headers, host: url.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { connection: 'close' });
      res.end();
    });
    req.pipe(up);
  }
}

function refusal(target: string): string {
  return `Airlock: this server may not reach ${target} (not in its list of hosts).\n`;
}

function refuse(socket: Duplex, target: string): void {
  const body = refusal(target);
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
