import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startRemoteApp,
  toolsOffered,
  type RemoteTestApp,
} from '../../../test-support/remote-app.js';
import { EverythingServer } from '../../../test-support/server-everything.js';
import { SessionServer } from '../../../test-support/session-server.js';

/**
 * Issue 28, item 3: a server's request made outside any call (server-everything asks for roots
 * that way) goes to a session of the agent whose upstream session it came on — the most recently
 * used one that declared what it needs, one whose client listens first — not to the agent's
 * oldest session. Several sessions of one agent with different capabilities, real SDK clients,
 * against the real server-everything and a real SDK server that asks on every call.
 */
let t: RemoteTestApp;
let es: EverythingServer;
const up = new SessionServer();
const open: Client[] = [];

beforeAll(async () => {
  es = await EverythingServer.start();
  await up.start();
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'everything', url: es.url });
  await t.app.control.addRemote({ name: 'up', url: up.url });
  // server-everything offers get-roots-list once it knows Airlock declared roots, by a
  // list_changed that Airlock then re-reads: wait for the tool to be there.
  const tools = ['everything__echo', 'everything__get-roots-list', 'up__echo'];
  await toolsOffered(t.app, tools);
  for (const tool of tools)
    await t.app.control.setToolPolicy(tool, { approval: 'auto', confirmDestructive: true });
}, 60_000);

afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await t?.stop();
  await es?.kill();
  await up.stop();
});

const text = (r: { content?: unknown }) =>
  ((r.content as { type: string; text?: string }[]) ?? []).map((x) => x.text ?? '').join('\n');

/**
 * A 2025-era session of the agent; with `root`, it declares roots and answers with that one.
 * Resolves once its GET stream is open (its answer arrived: Airlock registers the stream first),
 * so which sessions listen is settled before the test asks.
 */
async function session(token: string, root?: string): Promise<Client> {
  const client = new Client(
    { name: `agent-${root ?? 'no-roots'}`, version: '1' },
    { versionNegotiation: { mode: 'legacy' }, ...(root ? { capabilities: { roots: {} } } : {}) },
  );
  if (root)
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: root, name: root }] }));
  let listened!: () => void;
  const listening = new Promise<void>((r) => (listened = r));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        if (init?.method === 'GET' && res.ok) listened();
        return res;
      },
    }),
  );
  open.push(client);
  await listening;
  return client;
}

const newAgent = async (name: string) => (await t.app.control.addAgent(name)).token;
const askRoots = async (c: Client) =>
  text(await c.callTool({ name: 'up__echo', arguments: { roots: true } }));

describe('a server→client request outside any call', () => {
  it('server-everything: roots come from the session that declared them, not the older one without', async () => {
    const token = await newAgent('mixed');
    const older = await session(token);
    const withRoots = await session(token, 'file:///work/with-roots');
    const newer = await session(token);
    // The agent's upstream session opens on its first call; server-everything then asks for roots.
    expect(
      text(await older.callTool({ name: 'everything__echo', arguments: { message: 'hi' } })),
    ).toContain('hi');
    const own = await withRoots.callTool({ name: 'everything__get-roots-list', arguments: {} });
    expect(text(own)).toContain('file:///work/with-roots');
    expect(text(own)).not.toMatch(/did not declare/);
    const fromNewer = await newer.callTool({ name: 'everything__get-roots-list', arguments: {} });
    expect(text(fromNewer)).toContain('file:///work/with-roots');
  });

  it('of several sessions that declared roots, the most recently used one answers', async () => {
    const token = await newAgent('several');
    const a = await session(token, 'file:///a');
    const none = await session(token);
    const c = await session(token, 'file:///c');
    expect(await askRoots(c)).toContain('file:///c');
    expect(await askRoots(a)).toContain('file:///a');
    // The newest request came from a session without roots: the most recent that has them answers.
    const fromNone = await askRoots(none);
    expect(fromNone).toContain('file:///a');
    expect(fromNone).not.toContain('file:///c');
    expect(await askRoots(c)).toContain('file:///c');
  });

  it('a session whose client does not listen (no GET stream) is passed over for one that does', async () => {
    const token = await newAgent('quiet');
    // A raw client declares roots but never opens its GET stream; it is the agent's oldest
    // session, and its call below makes it the most recently used one too.
    const raw = await rawSession(token);
    const listening = await session(token, 'file:///listening');
    expect(await askRoots(listening)).toContain('file:///listening');
    const answer = await raw.call({ roots: true });
    expect(answer).toContain('file:///listening');
    expect(answer).not.toMatch(/failed/);
  });

  it('when no session of the agent declared roots, the server gets the reason', async () => {
    const token = await newAgent('rootless');
    await session(token);
    const plain = await session(token);
    expect(await askRoots(plain)).toMatch(
      /roots\/list failed: .*Airlock did not relay roots\/list from "up": the agent "rootless" .*did not declare the roots capability/,
    );
  });
});

/** A 2025 session over raw HTTP that declares roots but never opens its GET stream. */
async function rawSession(token: string): Promise<{ call: (args: object) => Promise<string> }> {
  const post = async (body: object, sid?: string) => {
    const res = await fetch(t.started.mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(sid ? { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' } : {}),
      },
      body: JSON.stringify(body),
    });
    return { sid: res.headers.get('mcp-session-id') ?? '', body: await res.text() };
  };
  const init = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { roots: {} },
      clientInfo: { name: 'raw-roots', version: '1' },
    },
  });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, init.sid);
  return {
    async call(args) {
      const r = await post(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'up__echo', arguments: args },
        },
        init.sid,
      );
      return r.body;
    },
  };
}
