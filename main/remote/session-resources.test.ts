import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentClient, startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
import { EverythingServer } from '../../test-support/server-everything.js';

/**
 * A resource a tool call adds to the agent's own upstream session (server-everything's
 * `gzip-file-as-resource` registers `demo://resource/session/<name>` on the calling session and
 * sends `notifications/resources/list_changed` there) reaches that agent as it would directly:
 * a list_changed, then resources/list includes it and it reads. Another agent, with its own
 * upstream session, neither hears of it nor lists or reads it (one upstream session per agent,
 * docs/remote.md). Both eras downstream: a 2025 session and a 2026-07-28 listen stream.
 */
let es: EverythingServer;
let t: RemoteTestApp;
let otherToken: string;
let modernToken: string;
const cleanup: (() => Promise<unknown>)[] = [];

const TOOL = 'everything__gzip-file-as-resource';
const uriOf = (name: string) => `airlock://everything/demo://resource/session/${name}`;

/** Counts the agent's resources/list_changed and lets a test wait for the next one. */
function watchListChanged(client: Client): { count: () => number; next: () => Promise<void> } {
  let n = 0;
  const waiters: (() => void)[] = [];
  client.setNotificationHandler('notifications/resources/list_changed', () => {
    n++;
    waiters.splice(0).forEach((w) => w());
  });
  return {
    count: () => n,
    next: () => new Promise<void>((resolve) => waiters.push(resolve)),
  };
}

async function classic(token: string): Promise<Client> {
  const c = await agentClient(t.started.mcpUrl, token);
  cleanup.push(() => c.close());
  return c;
}

async function modern(token: string): Promise<Client> {
  const c = new Client(
    { name: 'modern-agent', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await c.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  cleanup.push(() => c.close());
  expect(c.getProtocolEra()).toBe('modern');
  return c;
}

const gzip = (c: Client, name: string) =>
  c.callTool({ name: TOOL, arguments: { name, data: 'data:text/plain,hello%20session' } });

beforeAll(async () => {
  es = await EverythingServer.start();
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'everything', url: es.url });
  otherToken = (await t.app.control.addAgent('other')).token;
  modernToken = (await t.app.control.addAgent('modern')).token;
  await t.app.control.setToolPolicy(TOOL, { approval: 'auto', confirmDestructive: true });
}, 60_000);

afterAll(async () => {
  for (const c of cleanup.splice(0).reverse()) await c().catch(() => {});
  await t?.stop();
  await es?.kill();
});

describe("resources a call adds to the agent's own upstream session", () => {
  it('2025 session: announced to that agent, listed and read by it; never seen by another agent', async () => {
    const a = await classic(t.token);
    const b = await classic(otherToken);
    // Each agent has its own upstream session before the call (its first request opens it).
    await b.callTool({ name: 'everything__echo', arguments: { message: 'b' } });
    const aHeard = watchListChanged(a);
    const bHeard = watchListChanged(b);
    const before = (await a.listResources()).resources.map((r) => r.uri);
    expect(before).not.toContain(uriOf('a-only.gz'));

    const announced = aHeard.next();
    const r = await gzip(a, 'a-only.gz');
    expect(r.isError).toBeFalsy();
    expect(r.content).toContainEqual(
      expect.objectContaining({ type: 'resource_link', uri: uriOf('a-only.gz') }),
    );
    await announced;

    const listed = (await a.listResources()).resources;
    expect(listed.map((x) => x.uri)).toContain(uriOf('a-only.gz'));
    // The shared listing is still there beside the session's own.
    expect(listed.map((x) => x.uri)).toEqual(expect.arrayContaining(before));
    const read = await a.readResource({ uri: uriOf('a-only.gz') });
    expect(read.contents[0]).toMatchObject({
      uri: uriOf('a-only.gz'),
      mimeType: 'application/gzip',
    });

    // The other agent: no announcement of A's resource, not in its list, not readable.
    expect((await b.listResources()).resources.map((x) => x.uri)).not.toContain(uriOf('a-only.gz'));
    await expect(b.readResource({ uri: uriOf('a-only.gz') })).rejects.toThrow();
    // The original URI resolves by what each agent lists: A's own session has it, B's does not.
    const original = 'demo://resource/session/a-only.gz';
    expect((await a.readResource({ uri: original })).contents[0]).toMatchObject({
      uri: original,
    });
    await expect(b.readResource({ uri: original })).rejects.toThrow(/Unknown resource/);
    expect(bHeard.count()).toBe(0);
  });

  it('2026-07-28 agent: the list change comes on its listen stream, and its list has the resource', async () => {
    const m = await modern(modernToken);
    const heard = watchListChanged(m);
    const sub = await m.listen({ resourcesListChanged: true });
    expect(sub.honoredFilter).toEqual({ resourcesListChanged: true });
    const announced = heard.next();
    const r = await gzip(m, 'modern.gz');
    expect(r.isError).toBeFalsy();
    await announced;
    expect((await m.listResources()).resources.map((x) => x.uri)).toContain(uriOf('modern.gz'));
    // Not in the 2025 agents' lists.
    const other = await classic(otherToken);
    expect((await other.listResources()).resources.map((x) => x.uri)).not.toContain(
      uriOf('modern.gz'),
    );
    await sub.close();
  });
});
