import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { FakeUpstream } from '../../../test-support/fake-upstream.js';
import { ownAddress } from '../../../test-support/own-addresses.js';
import { NEVER_MS } from '../../../test-support/remote-app.js';
import { Logger } from '../../platform/log.js';
import { guardedFetch } from '../oauth/login-discovery.js';
import { LoginFlow } from '../oauth/login-flow.js';
import { OAuthSession } from '../oauth/session.js';
import { OAuthStore } from '../oauth/store.js';
import { MemoryVault } from '../../platform/vault/vault.js';
import { RemoteSource } from '../remote-source.js';
import { connectUpstream, describeFailure } from '../upstream/upstream.js';
import type { Resolver } from './address-guard.js';
import { AddressPin, type PinnedReach } from './address-pin.js';

/**
 * A server the user added by a public host name, whose name later answers an address on the
 * user's network (DNS rebinding, a hostile resolver): the user's header secrets and OAuth token
 * must not reach the LAN device there (address-pin.ts). The "LAN" and the "internet" are this
 * computer's own interface addresses of those classes — real sockets, real listeners.
 */
const LAN = ownAddress('private');
const PUBLIC = ownAddress('public');
if (!LAN)
  console.warn(
    'lan-rebinding tests skipped: this computer has no private-network interface address (10/8, 172.16/12, 192.168/16, fc00::/7 …) to listen on.',
  );
if (!PUBLIC)
  console.warn(
    'lan-rebinding public-first tests skipped: this computer has no public-class interface address to listen on (the pinned-from-settings tests still run).',
  );

const cleanup = cleanupAfterEach();
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(() => r(null)))));
});

/** A service on `address` that counts the requests reaching it (a router's admin page, a NAS). */
async function service(
  address: string,
  port = 0,
  answer: (res: import('node:http').ServerResponse) => void = (res) => res.writeHead(404).end(),
): Promise<{ port: number; asked: string[] }> {
  const asked: string[] = [];
  const s = createServer((req, res) => {
    asked.push(
      `${req.method} ${req.url} ${String(req.headers['x-api-key'] ?? '')}${String(req.headers.authorization ?? '')}`,
    );
    answer(res);
  });
  servers.push(s);
  const got = await new Promise<number>((r) =>
    s.listen(port, address, () => r((s.address() as AddressInfo).port)),
  );
  return { port: got, asked };
}

const answering =
  (...addresses: { address: string; family: number }[]): Resolver =>
  () =>
    Promise.resolve(addresses);

function connect(url: string, only: 'sse' | 'streamable-http', resolve: Resolver, pin: AddressPin) {
  return connectUpstream({
    url: new URL(url),
    headers: { 'X-API-Key': 'secret-key-1234' },
    timeoutMs: NEVER_MS,
    clientVersion: '1',
    only,
    resolve,
    pin,
  }).then(
    async (up) => {
      await up.close();
      return null;
    },
    (e: unknown) => e as Error,
  );
}

const NEVER = 10 * 60_000;
const timings = {
  connectMs: NEVER,
  listMs: NEVER,
  readyMs: NEVER,
  healthMs: NEVER,
  healthIntervalMs: 0,
  callIdleMs: NEVER,
  backoffInitialMs: NEVER,
  backoffMaxMs: NEVER,
};

function source(url: string, resolve: Resolver, pin: AddressPin): RemoteSource {
  const s = new RemoteSource(
    { name: 'up', url, headers: { 'X-API-Key': 'secret-key-1234' }, pin },
    { logger: new Logger({ stderr: false }), version: 'test', timings, resolve },
  );
  cleanup.push(() => s.stop());
  return s;
}

/** Runs the source's next attempt to its end (start: the first; reconnect returns its own). */
async function attempt(s: RemoteSource, run: () => void | Promise<void>): Promise<void> {
  await run();
  await s.settled();
}

const detail = (s: RemoteSource) => {
  const st = s.status();
  return st.state === 'error' ? st.detail : st.state;
};

/** A pin that records into `kept`, as RemoteManager writes settings. */
function recording(recorded?: PinnedReach): { pin: AddressPin; kept: PinnedReach[] } {
  const kept: PinnedReach[] = [];
  return { pin: new AddressPin(recorded, (r) => kept.push(r)), kept };
}

describe.skipIf(!LAN)('a server recorded public, whose name now answers a LAN address', () => {
  it.each(['sse', 'streamable-http'] as const)(
    '%s: refused before a byte is sent; the LAN service is never asked; the status says how to accept it',
    async (only) => {
      const lan = await service(LAN!.address);
      const err = await connect(
        `http://mcp.example.test:${lan.port}/mcp`,
        only,
        answering(LAN!),
        new AddressPin('public'),
      );
      expect(lan.asked).toEqual([]);
      const text = describeFailure(err);
      expect(text).toMatch(
        new RegExp(
          `^refused: mcp\\.example\\.test resolves to ${LAN!.address.replace(/[.]/g, '\\.')}, which is on a private network`,
        ),
      );
      expect(text).toContain('remove it and add it again');
    },
  );

  it('the same name and service, recorded private (first reached on the LAN): connects', async () => {
    const lan = await service(LAN!.address);
    const err = await connect(
      `http://mcp.example.test:${lan.port}/mcp`,
      'streamable-http',
      answering(LAN!),
      new AddressPin('private'),
    );
    // The service is no MCP server (404): what matters is that it was asked, with the header.
    expect(describeFailure(err)).toMatch(/^404/);
    expect(lan.asked[0]).toContain('secret-key-1234');
  });

  it("OAuth: the server's own-origin request (metadata, token refresh) is refused too", async () => {
    const lan = await service(LAN!.address);
    const serverUrl = `http://mcp.example.test:${lan.port}/mcp`;
    const f = guardedFetch('up', serverUrl, {
      resolve: answering(LAN!),
      pin: new AddressPin('public'),
    });
    const err = await f(
      `http://mcp.example.test:${lan.port}/.well-known/oauth-protected-resource`,
      {
        headers: { authorization: 'Bearer tok-123' },
      },
    ).then(
      () => null,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(err?.code).toBe('PRIVATE_ENDPOINT');
    expect(err?.message).toContain('which is on a private network');
    expect(lan.asked).toEqual([]);
  });
});

describe.skipIf(!LAN)('an idle socket another rule let onto the LAN', () => {
  it.each([
    ['another server at the same host and port, recorded private', new AddressPin('private')],
    ['a probe of the same URL (no pin)', undefined],
  ] as const)('is not reused by a server recorded public: %s', async (_, otherPin) => {
    // A keep-alive LAN service: the first connection's socket stays open and idle after its 404.
    const lan = await service(LAN!.address);
    const url = `http://mcp.example.test:${lan.port}/mcp`;
    const open = (key: string, pin: AddressPin | undefined) =>
      connectUpstream({
        url: new URL(url),
        headers: { 'X-API-Key': key },
        timeoutMs: NEVER_MS,
        clientVersion: '1',
        only: 'streamable-http',
        resolve: answering(LAN!),
        ...(pin ? { pin } : {}),
      }).then(
        async (up) => {
          await up.close();
          return null;
        },
        (e: unknown) => e as Error,
      );
    await open('other-key', otherPin);
    const before = lan.asked.length;
    expect(before).toBeGreaterThan(0);
    const err = await open('public-server-key', new AddressPin('public'));
    expect(describeFailure(err)).toContain('which is on a private network');
    expect(lan.asked.join('\n')).not.toContain('public-server-key');
    expect(lan.asked).toHaveLength(before);
  });
});

describe.skipIf(!LAN)('a sign-in to a server recorded public', () => {
  it('its discovery is refused before a request reaches the LAN service', async () => {
    const lan = await service(LAN!.address);
    const flow = (pin: AddressPin) =>
      new LoginFlow({
        name: 'up',
        serverUrl: `http://mcp.example.test:${lan.port}/mcp`,
        store: new OAuthStore(new MemoryVault(), 'up'),
        timeoutMs: NEVER,
        resolve: answering(LAN!),
        pin,
      });
    const err = await flow(new AddressPin('public'))
      .start()
      .then(
        () => null,
        (e: unknown) => e as Error & { code?: string },
      );
    expect(err?.code).toBe('PRIVATE_ENDPOINT');
    expect(lan.asked).toEqual([]);
    // Recorded private, the same sign-in asks the LAN service (and fails there: it is no OAuth server).
    await flow(new AddressPin('private'))
      .start()
      .catch(() => {});
    expect(lan.asked.length).toBeGreaterThan(0);
  });
});

describe.skipIf(!LAN)('the OAuth session of a server recorded public', () => {
  it("a 401's metadata read (the token's own origin) is refused; the LAN service sees nothing", async () => {
    const lan = await service(LAN!.address);
    const serverUrl = `http://mcp.example.test:${lan.port}/mcp`;
    const session = (pin?: AddressPin) =>
      new OAuthSession({
        store: new OAuthStore(new MemoryVault(), 'up'),
        serverUrl,
        resolve: answering(LAN!),
        ...(pin ? { pin } : {}),
      });
    const challenge = () =>
      new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
    const pinned = session(new AddressPin('public'));
    await pinned.load();
    await expect(
      pinned.onUnauthorized({ response: challenge(), serverUrl: new URL(serverUrl) }),
    ).rejects.toThrow();
    expect(lan.asked).toEqual([]);
    // The same session recorded private reads the metadata there (the check can fail).
    const lanFirst = session(new AddressPin('private'));
    await lanFirst.load();
    await lanFirst
      .onUnauthorized({ response: challenge(), serverUrl: new URL(serverUrl) })
      .catch(() => {});
    expect(lan.asked.some((a) => a.startsWith('GET /.well-known/oauth-protected-resource'))).toBe(
      true,
    );
  });
});

describe.skipIf(!LAN)('a server first reached on the LAN keeps working', () => {
  it('unrecorded: the first connection records private; reconnects and a later run still connect', async () => {
    const up = new FakeUpstream({ tools: [{ name: 'echo' }] });
    await up.start(0, LAN!.address);
    cleanup.push(() => up.stop());
    const url = `http://nas.local:${up.port}/mcp`;
    const { pin, kept } = recording();
    const s = source(url, answering(LAN!), pin);
    await attempt(s, () => s.start());
    expect(s.status().state).toBe('ready');
    expect(kept).toEqual(['private']);
    await attempt(s, () => s.reconnect());
    expect(s.status().state).toBe('ready');
    // A later run: the class comes from settings.
    const again = source(url, answering(LAN!), new AddressPin('private'));
    await attempt(again, () => again.start());
    expect(again.status().state).toBe('ready');
    expect(kept).toEqual(['private']);
  });
});

describe.skipIf(!LAN || !PUBLIC)(
  'first reached at a public address, then the name answers the LAN',
  () => {
    it('the first connection records public; after the switch the LAN service sees nothing', async () => {
      const up = new FakeUpstream({ tools: [{ name: 'echo' }] });
      await up.start(0, PUBLIC!.address);
      cleanup.push(() => up.stop());
      const lan = await service(LAN!.address, up.port);
      let answer = PUBLIC!;
      const resolve: Resolver = () => Promise.resolve([answer]);
      const { pin, kept } = recording();
      const s = source(`http://mcp.example.test:${up.port}/mcp`, resolve, pin);
      await attempt(s, () => s.start());
      expect(s.status().state).toBe('ready');
      expect(kept).toEqual(['public']);
      answer = LAN!;
      await attempt(s, () => s.reconnect());
      expect(detail(s)).toContain('which is on a private network');
      expect(detail(s)).toContain('remove it and add it again');
      expect(lan.asked).toEqual([]);
    });

    it('a failed first attempt at a LAN address, then a public success: records public; the LAN stays shut', async () => {
      const up = new FakeUpstream({ tools: [{ name: 'echo' }] });
      await up.start(0, PUBLIC!.address);
      cleanup.push(() => up.stop());
      const lan = await service(LAN!.address, up.port);
      let answer = LAN!;
      const { pin, kept } = recording();
      const s = source(
        `http://mcp.example.test:${up.port}/mcp`,
        () => Promise.resolve([answer]),
        pin,
      );
      // The attacker's name answers the LAN first: nothing there speaks MCP, the attempt fails.
      await attempt(s, () => s.start());
      expect(s.status().state).toBe('error');
      const askedFirst = lan.asked.length;
      // Then its own public server, which connects: that is the class to record.
      answer = PUBLIC!;
      await attempt(s, () => s.reconnect());
      expect(detail(s)).toBe('ready');
      expect(kept).toEqual(['public']);
      // And the LAN is shut to the name from then on.
      answer = LAN!;
      await attempt(s, () => s.reconnect());
      expect(detail(s)).toContain('which is on a private network');
      expect(lan.asked.length).toBe(askedFirst);
    });

    it('a first answer mixing public and LAN addresses connects at the public one and records public', async () => {
      const up = new FakeUpstream({ tools: [{ name: 'echo' }] });
      await up.start(0, PUBLIC!.address);
      cleanup.push(() => up.stop());
      const lan = await service(LAN!.address, up.port);
      const { pin, kept } = recording();
      // The LAN address first: a socket given both would try it first.
      const s = source(`http://mcp.example.test:${up.port}/mcp`, answering(LAN!, PUBLIC!), pin);
      await attempt(s, () => s.start());
      expect(s.status().state).toBe('ready');
      expect(kept).toEqual(['public']);
      expect(lan.asked).toEqual([]);
    });

    it("an agent's own session opened after the switch is refused too; the LAN service sees nothing", async () => {
      const up = new FakeUpstream({ tools: [{ name: 'echo' }] });
      await up.start(0, PUBLIC!.address);
      cleanup.push(() => up.stop());
      const lan = await service(LAN!.address, up.port);
      let answer = PUBLIC!;
      const s = source(
        `http://mcp.example.test:${up.port}/mcp`,
        () => Promise.resolve([answer]),
        recording().pin,
      );
      await attempt(s, () => s.start());
      expect(s.status().state).toBe('ready');
      answer = LAN!;
      // A stateful server: the agent's request opens a session of its own (agent-upstreams.ts).
      const err = await s
        .readResource('file:///x', { agent: 'agent-1', signal: new AbortController().signal })
        .then(
          () => null,
          (e: unknown) => e as Error,
        );
      expect(err?.message).toContain('which is on a private network');
      expect(lan.asked).toEqual([]);
    });

    it("an agent's tool call after the switch: refused, and its error says why; the LAN service sees nothing", async () => {
      const up = new FakeUpstream({ tools: [{ name: 'echo' }] });
      await up.start(0, PUBLIC!.address);
      cleanup.push(() => up.stop());
      const lan = await service(LAN!.address, up.port);
      let answer = PUBLIC!;
      const s = source(
        `http://mcp.example.test:${up.port}/mcp`,
        () => Promise.resolve([answer]),
        recording().pin,
      );
      await attempt(s, () => s.start());
      expect(s.status().state).toBe('ready');
      answer = LAN!;
      const r = await s.call(
        'echo',
        {},
        { agent: 'agent-1', signal: new AbortController().signal },
      );
      expect(r.isError).toBe(true);
      const text = JSON.stringify(r.content);
      expect(text).toContain('which is on a private network');
      expect(text).not.toContain('still connecting');
      expect(lan.asked).toEqual([]);
    });

    it('OAuth: a redirect hop after the switch is judged by the pin; the LAN service sees nothing', async () => {
      const lan = await service(LAN!.address);
      const pub = await service(PUBLIC!.address, lan.port, (res) =>
        res.writeHead(302, { location: '/.well-known/next' }).end(),
      );
      let asked = 0;
      // The first look-up answers public; every later one the LAN (a rebinding between hops).
      const resolve: Resolver = () => Promise.resolve([asked++ === 0 ? PUBLIC! : LAN!]);
      const serverUrl = `http://mcp.example.test:${lan.port}/mcp`;
      const pin = new AddressPin(undefined);
      const err = await guardedFetch('up', serverUrl, { resolve, pin })(
        `http://mcp.example.test:${lan.port}/.well-known/oauth-protected-resource`,
      ).then(
        () => null,
        (e: unknown) => e as Error & { code?: string },
      );
      expect(pub.asked).toHaveLength(1);
      expect(pin.reach).toBe('public');
      expect(err?.code).toBe('PRIVATE_ENDPOINT');
      expect(lan.asked).toEqual([]);
    });
  },
);

describe.skipIf(!LAN)('the same LAN listener, spelled differently in the answer', () => {
  it('every spelling of the LAN address is refused when recorded public, reached when private', async () => {
    const lan = await service(LAN!.address);
    const spellings =
      LAN!.family === 6
        ? [LAN!.address, expand(LAN!.address), LAN!.address.toUpperCase()]
        : [LAN!.address, `::ffff:${LAN!.address}`];
    for (const address of spellings) {
      const family = address.includes(':') ? 6 : 4;
      const url = `http://mcp.example.test:${lan.port}/x`;
      const f = (reach: PinnedReach) =>
        guardedFetch('up', url, {
          resolve: answering({ address, family }),
          pin: new AddressPin(reach),
        })(url).then(
          (r) => r.status,
          (e: unknown) => (e as { code?: string }).code,
        );
      const before = lan.asked.length;
      expect(await f('public'), address).toBe('PRIVATE_ENDPOINT');
      expect(lan.asked.length).toBe(before);
      expect(await f('private'), address).toBe(404);
      expect(lan.asked.length).toBe(before + 1);
    }
  });
});

/** An IPv6 address with every group written out. */
function expand(a: string): string {
  const [head, tail = ''] = a.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const zeros = a.includes('::') ? Array(8 - h.length - t.length).fill('0000') : [];
  return [...h, ...zeros, ...t].map((g) => g.padStart(4, '0')).join(':');
}
