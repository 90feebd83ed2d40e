import { connect, type Socket } from 'node:net';
import type { Agent, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { http } from '../../../platform/node-http.js';
import {
  AddressRefused,
  systemResolver,
  type AddressClass,
  type Resolver,
} from '../../http/address-guard.js';
import {
  InterfacesUnreadable,
  refusalAdvice,
  targetLookup,
  type Interfaces,
} from './host-address.js';
import {
  connectHost,
  matchingRule,
  parseTarget,
  ruleText,
  type HostRule,
  type Target,
} from './host-rules.js';

/**
 * The door out of a sandbox whose network is a host list (issue 35): an HTTP
 * proxy that opens a connection only to a listed host. `CONNECT host:port`
 * (HTTPS, and any TCP a client tunnels) gets a tunnel or a 403; a plain-HTTP
 * request in absolute form (`GET http://host/…`) is forwarded or refused the
 * same way. Every decision is made on the target as `parseTarget` normalizes
 * it, and the connection goes to exactly that host and port (host-rules.ts) —
 * at an address the host's rule allows: a listed name may not lead to this
 * computer, link-local or metadata addresses or the user's network, judged in
 * the socket's own DNS lookup (host-address.ts), so a name pointed at
 * 127.0.0.1 gets a 403 and no connection.
 *
 * On Linux it listens on a Unix socket bound into the sandbox (its only way
 * out, since the sandbox has its own network namespace); on macOS on a
 * loopback port, the only one the sandbox profile lets it reach.
 */
export interface HostProxyOptions {
  rules: readonly HostRule[];
  /**
   * A refused target ("host:port"), for the server's status and the log; `why` when it was listed
   * but resolved to an address its rule does not allow.
   */
  onRefused?: (target: string, why?: AddressRefusal) => void;
  /**
   * A listed, allowed target the proxy could not connect to (its client got a 502): the error's
   * code (ECONNREFUSED, ERR_INVALID_IP_ADDRESS for an answer that is no IP, EINTERFACES when this
   * computer's interfaces could not be read) and message, for the log.
   */
  onFailed?: (target: string, err: { code: string; message: string }) => void;
  /** Resolves listed names (the system's resolver unless a test gives one). */
  resolve?: Resolver;
  /** This computer's interfaces, whose addresses a listed name may not lead to (os.networkInterfaces unless a test gives them). */
  interfaces?: Interfaces;
}

/** A listed target refused for the address its name resolved to (no path, no query: no secrets). */
export interface AddressRefusal {
  /** The host-list entry that matched, as the user's settings show it. */
  rule: string;
  address: string;
  cls: AddressClass;
  /** Why, and what to do: "resolves to 10.0.0.5, a private address; list 10.0.0.5:443 to allow it". */
  advice: string;
}

export class HostProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Duplex>();
  private rules: readonly HostRule[];
  private readonly resolve: Resolver;
  /**
   * The plain forward's own agent, without keep-alive. http.globalAgent (keep-alive since Node 19)
   * pools sockets by host:port and hands a pooled one to the next request without calling its
   * `lookup`, so a socket some other request left open to api.vendor.test:P at 127.0.0.1 carried a
   * proxied request there unjudged (review, wave 3). Without keep-alive no socket outlives its
   * request, so every forward is looked up (and judged) afresh; close() destroys what is open.
   */
  private readonly agent: Agent;

  constructor(private readonly o: HostProxyOptions) {
    this.rules = o.rules;
    this.resolve = o.resolve ?? systemResolver;
    this.agent = new http.Agent({ keepAlive: false });
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
    this.agent.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(s: Duplex): void {
    this.sockets.add(s);
    s.once('close', () => this.sockets.delete(s));
  }

  /** The rule that lets `target` through, or undefined (reported refused). */
  private check(target: Target | undefined, raw: string): HostRule | undefined {
    const rule = target && matchingRule(this.rules, target);
    if (rule) return rule;
    this.o.onRefused?.(target ? `${target.host}:${target.port}` : raw.slice(0, 200));
    return undefined;
  }

  /** Reports a refused address and says why to the client (the body of its 403). */
  private addressRefused(target: Target, rule: HostRule, err: AddressRefused): string {
    const where = `${target.host}:${target.port}`;
    const advice = refusalAdvice(err.address, err.cls, target.port);
    this.o.onRefused?.(where, { rule: ruleText(rule), address: err.address, cls: err.cls, advice });
    // Pointing the server at the address goes with listing it, which only a private one is offered.
    const also = err.cls === 'private' ? ' (and point the server at that address)' : '';
    return `Airlock: this server may not reach ${where}: ${target.host} ${advice}${also}.\n`;
  }

  /** Reports a connection that failed (not refused), and hands the error on. */
  private failed(target: Target, err: NodeJS.ErrnoException): Error {
    this.o.onFailed?.(`${target.host}:${target.port}`, {
      code: err.code ?? err.name,
      message: err.message,
    });
    return err;
  }

  private tunnel(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const raw = req.url ?? '';
    const target = parseTarget(raw);
    const rule = this.check(target, raw);
    if (!target || !rule) return refuse(socket, refusal(raw));
    const up = connect({
      host: connectHost(target),
      port: target.port,
      lookup: targetLookup(target, this.resolve, this.o.interfaces),
    });
    this.track(up);
    // `up.connecting` is already false when a failed connect's 'error' comes (node:net destroys
    // the socket first), so whether the tunnel was established is kept here.
    let established = false;
    let answered = false; // an error answer is being written: closing `up` must not cut it off
    up.once('connect', () => {
      established = true;
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', (err) => {
      if (socket.destroyed || established) return socket.destroy();
      answered = true;
      if (err instanceof AddressRefused) refuse(socket, this.addressRefused(target, rule, err));
      else socket.end(badGateway(this.failed(target, err)));
    });
    socket.on('error', () => up.destroy());
    socket.on('close', () => up.destroy());
    up.on('close', () => {
      if (!answered) socket.destroy();
    });
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
    const rule = this.check(target, url?.host ?? raw);
    if (!url || !target || !rule) return forbid(res, refusal(url?.host ?? raw));
    const up = http.request(
      {
        host: connectHost(target),
        port: target.port,
        lookup: targetLookup(target, this.resolve, this.o.interfaces),
        agent: this.agent,
        method: req.method,
        path: url.pathname + url.search,
        headers: { ...req.headers, host: url.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('socket', (s) => this.track(s));
    up.on('error', (err) => {
      if (err instanceof AddressRefused && !res.headersSent)
        return forbid(res, this.addressRefused(target, rule, err));
      this.failed(target, err);
      if (res.headersSent) return res.end();
      res.writeHead(502, { connection: 'close' });
      res.end(err instanceof InterfacesUnreadable ? `${err.message}.\n` : undefined);
    });
    req.pipe(up);
  }
}

/** A 502 for a failed connection; only Airlock's own reason is told, not the network's error. */
function badGateway(err: Error): string {
  const body = err instanceof InterfacesUnreadable ? `${err.message}.\n` : '';
  return `HTTP/1.1 502 Bad Gateway\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

function refusal(target: string): string {
  return `Airlock: this server may not reach ${target} (not in its list of hosts).\n`;
}

function forbid(res: ServerResponse, body: string): void {
  res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' });
  res.end(body);
}

function refuse(socket: Duplex, body: string): void {
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
