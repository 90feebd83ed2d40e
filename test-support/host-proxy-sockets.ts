import { connect, createServer, isIP, type LookupFunction, type Server } from 'node:net';
import { join } from 'node:path';
import type { ResolvedAddress, Resolver } from '../main/remote/http/address-guard.js';
import { tempDir } from './temp-dir.js';
import { HostProxy, type AddressRefusal } from '../main/remote/stdio/sandbox/host-proxy.js';
import { parseHostRule } from '../main/remote/stdio/sandbox/host-rules.js';
import type { Interfaces } from '../main/remote/stdio/sandbox/host-address.js';

/**
 * Real sockets for the host-list proxy's address tests: a service on this computer's loopback
 * (what a rebound name must not reach) and a proxy whose resolver the test chooses.
 */

/** The name every test lists, resolved by the stub to what the test says. */
export const LISTED = 'api.vendor.test';

/**
 * A service on 127.0.0.1 and ::1 at one port, answering any request with a small HTTP response
 * (a CONNECT client reads it through the tunnel, a forwarded request as the answer).
 * `hits()` counts the connections that reached it, after a barrier connection of its own to each
 * address has been accepted: the kernel accepts a listener's connections in order, so any
 * connection the proxy opened before answering was counted by then — an event, not a wait.
 */
export interface LoopbackService {
  port: number;
  hits(): Promise<number>;
  close(): Promise<void>;
}

export async function loopbackService(): Promise<LoopbackService> {
  const seen: string[] = []; // "address|port" of each connection's far end
  const waiting = new Map<string, () => void>();
  const make = (): Server =>
    createServer((c) => {
      c.on('error', () => {}); // a client hanging up first is not a failure
      const from = `${c.remoteAddress}|${c.remotePort}`;
      const release = waiting.get(from);
      if (release) return (waiting.delete(from), c.destroy(), release());
      seen.push(from);
      // Answers once a request's head has come, as an HTTP server does (a CONNECT client sends
      // one through its tunnel).
      let head = '';
      c.on('data', (d: Buffer) => {
        head += d.toString('latin1');
        if (head.includes('\r\n\r\n'))
          c.end('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nhi\n');
      });
    });
  const v4 = make();
  const v6 = make();
  let port = 0;
  // ::1 at the port 127.0.0.1 got; another program may hold it there, so try again.
  for (;;) {
    await new Promise<void>((r) => v4.listen(0, '127.0.0.1', r));
    port = (v4.address() as { port: number }).port;
    const ok = await new Promise<boolean>((r) => {
      v6.once('error', () => r(false));
      v6.listen(port, '::1', () => r(true));
    });
    if (ok) break;
    await new Promise((r) => v4.close(r));
  }
  // Whichever comes second — the service's accept or the barrier's own connect event — settles it.
  const barrier = (host: string) =>
    new Promise<void>((resolve, reject) => {
      const c = connect({ host, port });
      c.on('error', () => {}); // the service hangs up on it
      c.once('error', reject);
      c.once('connect', () => {
        const me = `${c.localAddress}|${c.localPort}`;
        const at = seen.indexOf(me);
        if (at < 0) return waiting.set(me, resolve);
        seen.splice(at, 1);
        c.destroy();
        resolve();
      });
    });
  return {
    port,
    async hits() {
      await Promise.all([barrier('127.0.0.1'), barrier('::1')]);
      return seen.length;
    },
    close: () =>
      Promise.all([v4, v6].map((s) => new Promise((r) => s.close(r)))).then(() => undefined),
  };
}

/** A resolver that knows `name` only, answering `answer`; any other name is not found. */
export function stubResolver(name: string, answer: ResolvedAddress[]): Resolver {
  return (h) =>
    h === name
      ? Promise.resolve(answer)
      : Promise.reject(
          Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' }),
        );
}

export interface RunningProxy {
  path: string;
  refused: { target: string; why?: AddressRefusal }[];
  /** The connections that failed (502), with node:net's or the guard's error code. */
  failed: { target: string; code: string }[];
  close(): Promise<void>;
}

/** A real HostProxy on a Unix socket (as on Linux), listing `entries`, resolving with `resolve`. */
export async function runProxy(
  entries: string[],
  resolve: Resolver,
  interfaces?: Interfaces,
): Promise<RunningProxy> {
  const refused: RunningProxy['refused'] = [];
  const failed: RunningProxy['failed'] = [];
  const proxy = new HostProxy({
    rules: entries.map(parseHostRule),
    resolve,
    ...(interfaces ? { interfaces } : {}),
    onRefused: (target, why) => refused.push(why ? { target, why } : { target }),
    onFailed: (target, err) => failed.push({ target, code: err.code }),
  });
  const path = join(tempDir('airlock-proxy-addr-'), 'p.sock');
  await proxy.listen({ path });
  return { path, refused, failed, close: () => proxy.close() };
}

/** Sends one raw request through the proxy and resolves with all it answered. */
export function ask(socketPath: string, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = connect(socketPath);
    let buf = '';
    c.on('data', (d) => (buf += d));
    c.on('end', () => resolve(buf));
    c.on('error', reject);
    c.write(request);
  });
}

/** A CONNECT, then a request through the tunnel (sent at once, as the tunnel's first bytes). */
export const connectTo = (authority: string) =>
  `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\nGET / HTTP/1.1\r\nHost: ${authority}\r\n\r\n`;
export const getFrom = (authority: string) =>
  `GET http://${authority}/path?q=1 HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`;

/**
 * What the proxy's lookups handed its sockets, and a stand-in that keeps every socket on this
 * computer: an address outside loopback/0.0.0.0 is recorded and failed with ECONNREFUSED instead
 * of being connected to, so a broken guard sends no SYN to 10.0.0.5 or fe80::1 and shows at once
 * (a 502 and a recorded address) rather than after an OS connect timeout (review, wave 3). An
 * answer that is no IP address (`0x7f000001`) is passed on as it came: node:net itself then fails
 * with ERR_INVALID_IP_ADDRESS and connects nowhere, and a test sees node:net's own behaviour.
 */
export const handed: string[] = [];
const ON_THIS_COMPUTER = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1', '0.0.0.0']);

export function recordingLookup(real: LookupFunction): LookupFunction {
  return (hostname, options, callback) =>
    real(hostname, options, (err, address, family) => {
      if (err) return callback(err, '', 0);
      const all = typeof address === 'string' ? [{ address, family: family ?? 0 }] : address;
      handed.push(...all.map((a) => a.address));
      const away = all.find((a) => isIP(a.address) !== 0 && !ON_THIS_COMPUTER.has(a.address));
      if (away)
        return callback(
          Object.assign(new Error(`connect ECONNREFUSED ${away.address} (test stand-in)`), {
            code: 'ECONNREFUSED',
          }),
          '',
          0,
        );
      callback(null, address as string, family as number);
    });
}
