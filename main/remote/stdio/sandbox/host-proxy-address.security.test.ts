import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import nodeHttp from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Logger } from '../../../platform/log.js';
import type { AddressClass, ResolvedAddress } from '../../http/address-guard.js';
import {
  ask,
  connectTo,
  getFrom,
  handed,
  LISTED,
  loopbackService,
  recordingLookup,
  runProxy,
  stubResolver,
  type LoopbackService,
} from '../../../../test-support/host-proxy-sockets.js';
import { tempDir } from '../../../../test-support/temp-dir.js';
import { ServerProxies } from './server-proxies.js';

/**
 * Security audit (wave 3): the host-list proxy checked the listed name but connected wherever DNS
 * said, so `api.vendor.example:<port>` resolving to 127.0.0.1 gave a sandboxed server "200
 * Connection Established" to a loopback service of this computer. Here a real proxy, a resolver
 * stub for the listed name and a real loopback service: a name leading to this computer, a
 * link-local or metadata address or the user's network gets a 403 naming the address, for a
 * CONNECT tunnel and for a forwarded plain-HTTP request, and the service is never reached. The
 * controls — a listed IP literal, `localhost` — still connect, on the same proxy afterwards.
 */
// Every lookup the proxy makes goes through the recording stand-in (test-support): no socket
// leaves this computer, whatever the guard lets through.
vi.mock('./host-address.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./host-address.js')>();
  return {
    ...real,
    targetLookup: (...a: Parameters<typeof real.targetLookup>) =>
      recordingLookup(real.targetLookup(...a)),
  };
});

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  handed.splice(0);
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function service(): Promise<LoopbackService> {
  const s = await loopbackService();
  cleanup.push(() => s.close());
  return s;
}

/** This computer's interfaces as the proxy sees them: loopback, and eth0 with a public-class IPv4 and a global IPv6. */
const IFACES = () => ({
  lo: [iface('127.0.0.1', 'IPv4'), iface('::1', 'IPv6')],
  eth0: [iface('203.0.113.7', 'IPv4'), iface('2001:db8:5::7', 'IPv6'), iface('10.1.2.3', 'IPv4')],
});
function iface(address: string, family: 'IPv4' | 'IPv6') {
  const common = { address, netmask: '', mac: '00:00:00:00:00:00', internal: false, cidr: null };
  return family === 'IPv4' ? { ...common, family } : { ...common, family, scopeid: 0 };
}

async function proxy(entries: string[], answer: ResolvedAddress[], name = LISTED) {
  const p = await runProxy(entries, stubResolver(name, answer), IFACES);
  cleanup.push(() => p.close());
  return p;
}

/** The words the user reads for each class (written here, not taken from the code under test). */
const KIND: Record<AddressClass, string> = {
  local: 'an address of this computer',
  'link-local': 'a link-local or cloud metadata address',
  private: 'a private address',
  public: 'a public address',
};
const entryOf = (address: string, port: number) =>
  address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;

const v = (address: string): ResolvedAddress => ({
  address,
  family: address.includes(':') ? 6 : 4,
});

/** What a listed name may be pointed at, the class it is refused as; each would reach the service or beyond. */
const ATTACKS: [string, AddressClass][] = [
  ['127.0.0.1', 'local'],
  ['::1', 'local'],
  ['::ffff:127.0.0.1', 'local'], // IPv4-mapped: Linux connects it to 127.0.0.1
  ['0.0.0.0', 'local'], // connecting to 0.0.0.0 reaches this computer
  ['169.254.169.254', 'link-local'], // cloud metadata
  ['fe80::1', 'link-local'],
  ['64:ff9b::7f00:1', 'local'], // NAT64 spelling of 127.0.0.1
  ['64:ff9b:1:7f00:0:100::', 'private'], // NAT64 local-use prefix (RFC 8215): 127.0.0.1 at /48
  ['10.0.0.5', 'private'],
  ['192.168.1.20', 'private'],
  ['fd12::20', 'private'], // unique local
  // This computer's own interface addresses (IFACES), which the classifier calls public/private.
  ['203.0.113.7', 'local'],
  ['::ffff:203.0.113.7', 'local'],
  ['2001:db8:5::7', 'local'],
  ['10.1.2.3', 'local'],
];

describe('a listed name resolving to a refused address (real proxy, real loopback service)', () => {
  it.each(ATTACKS)(
    '%s: CONNECT and plain HTTP get 403 naming it; nothing is reached',
    async (address, cls) => {
      const svc = await service();
      const target = `${LISTED}:${svc.port}`;
      const p = await proxy([target], [v(address)]);

      const tunnel = await ask(p.path, connectTo(target));
      expect(tunnel).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
      expect(tunnel).toContain(`${LISTED} resolves to ${address}`);
      const plain = await ask(p.path, getFrom(target));
      expect(plain).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
      expect(plain).toContain(`${LISTED} resolves to ${address}`);

      expect(await svc.hits()).toBe(0);
      expect(handed).toEqual([]); // no socket was given the address
      // Logged with the rule and the refused address, never the request's path or query.
      // Advice to list the address for the user's network only; this computer and link-local or
      // metadata addresses are refused for safety, with no way through offered.
      const advice =
        cls === 'private'
          ? `resolves to ${address}, ${KIND[cls]}; list ${entryOf(address, svc.port)} to allow it`
          : `resolves to ${address}, ${KIND[cls]}; refused for safety`;
      const also = cls === 'private' ? ' (and point the server at that address)' : '';
      expect(tunnel).toContain(`${LISTED} ${advice}${also}.\n`);
      if (cls !== 'private') expect(tunnel + plain).not.toMatch(/\blist\b|point the server/);
      expect(p.refused).toEqual([
        { target, why: { rule: target, address, cls, advice } },
        { target, why: { rule: target, address, cls, advice } },
      ]);
      expect(JSON.stringify(p.refused)).not.toContain('q=1');
    },
  );

  it('a wildcard entry is guarded the same way, and the log names the wildcard rule', async () => {
    const svc = await service();
    const target = `${LISTED}:${svc.port}`;
    const p = await proxy([`*.vendor.test:${svc.port}`], [v('127.0.0.1')]);
    expect(await ask(p.path, connectTo(target))).toMatch(/^HTTP\/1\.1 403 /);
    expect(await svc.hits()).toBe(0);
    expect(p.refused[0]!.why!.rule).toBe(`*.vendor.test:${svc.port}`);
  });

  it('an answer of several refused addresses (the socket would try each in turn) reaches none', async () => {
    const svc = await service();
    const target = `${LISTED}:${svc.port}`;
    const p = await proxy([target], [v('127.0.0.1'), v('::1')]);
    expect(await ask(p.path, connectTo(target))).toMatch(/^HTTP\/1\.1 403 /);
    expect(await svc.hits()).toBe(0);
  });
});

describe('controls: what the user listed as an address still connects, and the proxy stays up', () => {
  it('after refusals, a listed 127.0.0.1 and [::1] are reached by CONNECT and plain HTTP', async () => {
    const svc = await service();
    const p = await proxy(
      [`${LISTED}:${svc.port}`, `127.0.0.1:${svc.port}`, `[::1]:${svc.port}`],
      [v('127.0.0.1')],
    );
    expect(await ask(p.path, connectTo(`${LISTED}:${svc.port}`))).toMatch(/^HTTP\/1\.1 403 /);
    expect(await ask(p.path, getFrom(`${LISTED}:${svc.port}`))).toMatch(/^HTTP\/1\.1 403 /);

    // 2130706433 is 127.0.0.1 spelled as one number: the same literal, parsed as it connects.
    for (const t of [`2130706433:${svc.port}`, `[::1]:${svc.port}`])
      expect(await ask(p.path, connectTo(t)), t).toMatch(
        /^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK\r\n.*hi\n$/s,
      );
    for (const t of [`127.0.0.1:${svc.port}`, `[::1]:${svc.port}`])
      expect(await ask(p.path, getFrom(t)), t).toMatch(/^HTTP\/1\.1 200 OK\r\n.*hi\n$/s);
    expect(await svc.hits()).toBe(4);
  });

  it('a listed localhost is the user’s own choice: reached at the loopback address it resolves to', async () => {
    const svc = await service();
    const p = await proxy([`localhost:${svc.port}`], [v('127.0.0.1')], 'localhost');
    expect(await ask(p.path, connectTo(`localhost:${svc.port}`))).toMatch(
      /^HTTP\/1\.1 200 Connection Established\r\n/,
    );
    expect(await ask(p.path, getFrom(`localhost:${svc.port}`))).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(await svc.hits()).toBe(2);
    expect(p.refused).toEqual([]);
  });
});

describe('what the user sees of a refused address', () => {
  it('the log names the server, the rule and the address, not the path or query; the status shows the address', async () => {
    const svc = await service();
    const dir = tempDir('airlock-proxy-log-');
    const proxies = new ServerProxies(
      'linux',
      new Logger({ dir, stderr: false }),
      stubResolver(LISTED, [v('169.254.169.254')]),
    );
    cleanup.push(() => proxies.closeAll());
    const at = String(await proxies.at('weather', [`${LISTED}:${svc.port}`]));
    const secret = 'tok-5f2c9a7e1b';
    const got = await ask(
      at,
      `GET http://${LISTED}:${svc.port}/v1?key=${secret} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(got).toMatch(/^HTTP\/1\.1 403 /);
    expect(got).not.toContain(secret);
    const lines = readFileSync(join(dir, 'airlock.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: `local server network refused: ${LISTED}:${svc.port} resolves to 169.254.169.254, a link-local or cloud metadata address; refused for safety`,
        server: 'weather',
        target: `${LISTED}:${svc.port}`,
        rule: `${LISTED}:${svc.port}`,
        address: '169.254.169.254',
        class: 'link-local',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(secret);
    expect(proxies.refusedOf('weather')).toEqual([
      `${LISTED}:${svc.port} (resolves to 169.254.169.254, a link-local or cloud metadata address; refused for safety)`,
    ]);
    expect(await svc.hits()).toBe(0);
  });
});

describe('a pooled socket is never reused for a forward (review, wave 3)', () => {
  it('a keep-alive socket in http.globalAgent to the same host:port at 127.0.0.1 does not carry the proxied GET', async () => {
    // A keep-alive HTTP service on 127.0.0.1; each request it serves is counted.
    let served = 0;
    const svc = nodeHttp.createServer((_req, res) => {
      served++;
      res.end('hi\n');
    });
    await new Promise<void>((r) => svc.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => svc.close(r)));
    cleanup.push(async () => svc.closeAllConnections());
    const port = (svc.address() as { port: number }).port;
    const target = `${LISTED}:${port}`;

    // Another request in this process leaves a free socket to LISTED:port (really 127.0.0.1) in
    // the global agent's pool, whose key is host:port — not the lookup.
    const freed = once(nodeHttp.globalAgent, 'free');
    const prior = nodeHttp.request({
      host: LISTED,
      port,
      agent: nodeHttp.globalAgent,
      lookup: (_h, o, cb) =>
        o.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4),
    });
    prior.on('response', (r) => r.resume());
    prior.end();
    await freed;
    expect(Object.keys(nodeHttp.globalAgent.freeSockets)).toContain(`${target}:`);
    cleanup.push(async () => nodeHttp.globalAgent.destroy());

    const p = await proxy([target], [v('127.0.0.1')]);
    const plain = await ask(p.path, getFrom(target));
    expect(plain).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(served).toBe(1); // the prior request only
  });
});

describe("this computer's own addresses", () => {
  it('are read at each lookup: an address gained after the proxy started is refused', async () => {
    let eth0: ReturnType<typeof iface>[] = [];
    const p = await runProxy([`${LISTED}:443`], stubResolver(LISTED, [v('198.51.100.9')]), () => ({
      eth0,
    }));
    cleanup.push(() => p.close());
    // Before: a public address, handed to the socket (the stand-in refuses it: a 502).
    expect(await ask(p.path, connectTo(`${LISTED}:443`))).toMatch(/^HTTP\/1\.1 502 /);
    expect(handed).toEqual(['198.51.100.9']);
    eth0 = [iface('198.51.100.9', 'IPv4')];
    const after = await ask(p.path, connectTo(`${LISTED}:443`));
    expect(after).toMatch(/^HTTP\/1\.1 403 /);
    expect(after).toContain('198.51.100.9');
    expect(handed).toEqual(['198.51.100.9']); // not handed again
  });
});

describe("this computer's interfaces cannot be read (os.networkInterfaces throws, e.g. EMFILE)", () => {
  it('CONNECT and plain HTTP get a 502 saying why; nothing is connected, nothing thrown', async () => {
    const svc = await service();
    const target = `${LISTED}:${svc.port}`;
    const failing = () => {
      // What Node throws when getifaddrs fails (uv_interface_addresses, EMFILE).
      throw Object.assign(
        new Error('A system error occurred: uv_interface_addresses returned EMFILE'),
        {
          code: 'ERR_SYSTEM_ERROR',
        },
      );
    };
    // An exception escaping the proxy fails the test at once (the client would otherwise hang).
    let note: (err: unknown) => void = () => {};
    const thrown = new Promise<never>((_, reject) => (note = reject));
    process.on('uncaughtException', note);
    cleanup.push(async () => void process.off('uncaughtException', note));
    const answer = (request: string) => Promise.race([ask(p.path, request), thrown]);
    const p = await runProxy([target], stubResolver(LISTED, [v('127.0.0.1')]), failing);
    cleanup.push(() => p.close());

    const reason = "Airlock could not read this computer's network interfaces";
    const tunnel = await answer(connectTo(target));
    expect(tunnel).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
    expect(tunnel).toContain(reason);
    expect(tunnel).toContain('EMFILE');
    const plain = await answer(getFrom(target));
    expect(plain).toMatch(/^HTTP\/1\.1 502 /);
    expect(plain).toContain(reason);

    expect(handed).toEqual([]);
    expect(await svc.hits()).toBe(0);
    expect(p.failed).toEqual([
      { target, code: 'EINTERFACES' },
      { target, code: 'EINTERFACES' },
    ]);
  });
});
