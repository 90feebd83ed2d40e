import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { formatRemote } from '../../cli/remote.js';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { agentClient, startRemoteApp, until } from '../../../test-support/remote-app.js';
import {
  MAX_LIST_PAGES,
  MAX_SERVER_PROMPTS,
  MAX_SERVER_RESOURCES,
  MAX_SERVER_TEMPLATES,
  MAX_SERVER_TOOLS,
} from './list-budget.js';

/**
 * A hostile server pages its lists without end (issue 17: a server cannot exhaust the machine).
 * The SDK client walks up to 64 pages of a list before it returns; the bound on the count was
 * checked only on that aggregate, so Airlock held 64 pages (each up to 64 MiB) of tools first, and
 * resources, resource templates and prompts had no bound at all. Now every page is counted as it
 * arrives and the walk ends at the first page past the bound: tools, templates and prompts put
 * the server in error naming the bound; resources are cut at theirs and the server is served.
 * The upstream is the v2 SDK's own server, paging `PAGE` items with a next cursor on every page.
 */
const cleanup = cleanupAfterEach();
const PAGE = 500;

type Listed = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/** Pages served per list walk (a request without a cursor starts one), per method. */
type Walks = Record<string, number[]>;

async function endlessLister(
  endless: Listed[],
  /** Items per page (default PAGE), and how many pages before the list ends (default: never). */
  o: { perPage?: number; pages?: number } = {},
): Promise<{ url: string; walks: Walks }> {
  const perPage = o.perPage ?? PAGE;
  const walks: Walks = {};
  const item: Record<Listed, (i: number) => Record<string, unknown>> = {
    tools: (i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }),
    resources: (i) => ({ uri: `mem://r/${i}`, name: `r${i}` }),
    resourceTemplates: (i) => ({ uriTemplate: `mem://t${i}/{x}`, name: `t${i}` }),
    prompts: (i) => ({ name: `p${i}` }),
  };
  // The SDK types each list's items; these are built to those shapes (`item`).
  const page = (method: string, key: Listed, cursor: string | undefined): never => {
    const n = cursor === undefined ? 0 : Number(cursor);
    if (cursor === undefined) (walks[method] ??= []).push(1);
    else walks[method]![walks[method]!.length - 1]!++;
    // A well-behaved list: one page of one item, so the server stays usable.
    if (!endless.includes(key)) return { [key]: [item[key](0)] } as never;
    return {
      [key]: Array.from({ length: perPage }, (_, i) => item[key](n * perPage + i)),
      ...(o.pages === undefined || n + 1 < o.pages ? { nextCursor: String(n + 1) } : {}),
    } as never;
  };
  const handler = createMcpHandler(
    () => {
      const server = new Server(
        { name: 'endless', version: '1' },
        { capabilities: { tools: {}, resources: {}, prompts: {} } },
      );
      server.setRequestHandler('tools/list', async (r) =>
        page('tools/list', 'tools', r.params?.cursor),
      );
      server.setRequestHandler('resources/list', async (r) =>
        page('resources/list', 'resources', r.params?.cursor),
      );
      server.setRequestHandler('resources/templates/list', async (r) =>
        page('resources/templates/list', 'resourceTemplates', r.params?.cursor),
      );
      server.setRequestHandler('prompts/list', async (r) =>
        page('prompts/list', 'prompts', r.params?.cursor),
      );
      server.setRequestHandler('resources/read', async (req) => ({
        contents: [{ uri: req.params.uri, text: `read ${req.params.uri}` }],
      }));
      server.setRequestHandler('tools/call', async () => ({
        content: [{ type: 'text', text: 'ok' }],
      }));
      return server;
    },
    { legacy: 'stateless' },
  );
  const node = toNodeHandler(handler);
  const http = createServer((req, res) => {
    void (async () => {
      let body: unknown;
      if (req.method === 'POST') {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
      }
      await node(req, res, body);
    })();
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  cleanup.push(async () => {
    http.closeAllConnections();
    await new Promise((r) => http.close(r));
  });
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, walks };
}

/** The pages a walk needs to pass `limit` items. */
const pastBound = (limit: number) => Math.floor(limit / PAGE) + 1;

describe('a server that pages a list without end', () => {
  it.each([
    ['tools', 'tools/list', 'tools', MAX_SERVER_TOOLS],
    ['prompts', 'prompts/list', 'prompts', MAX_SERVER_PROMPTS],
    ['resourceTemplates', 'resources/templates/list', 'resource templates', MAX_SERVER_TEMPLATES],
  ] as const)(
    'of %s is in error naming the bound, and no walk asks for a page past it',
    async (key, method, what, limit) => {
      const t = await startRemoteApp();
      cleanup.push(() => t.stop());
      const up = await endlessLister([key]);
      await t.app.control.addRemote({ name: 'endless', url: up.url });
      const remote = async () =>
        (await t.app.control.listRemotes()).find((r) => r.name === 'endless');
      await until(t.app, async () => (await remote())?.state === 'error');
      const pages = pastBound(limit);
      expect((await remote())?.detail).toContain(
        `the server lists more than ${limit} ${what} (${pages * PAGE} in its first ${pages} pages); Airlock takes at most ${limit} from one server`,
      );
      // Every walk so far (the server is retried) stopped at the first page past the bound;
      // before, each went on to the SDK's 64.
      expect(up.walks[method]!.length).toBeGreaterThan(0);
      expect(Math.max(...up.walks[method]!)).toBe(pages);
    },
  );

  it('of resources is served with the first ones up to the bound, and one past the cut still reads', async () => {
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    const up = await endlessLister(['resources']);
    const view = await t.app.control.addRemote({ name: 'endless', url: up.url });
    expect(view.state).toBe('ready');
    expect(view.protocolVersion).toBe('2026-07-28');
    expect(Math.max(...up.walks['resources/list']!)).toBe(pastBound(MAX_SERVER_RESOURCES));
    // Said where the user looks, not only in the log: the server's view (the Servers page) and
    // its `airlock remote list` line.
    const cut = `the server lists more than ${MAX_SERVER_RESOURCES} resources (${pastBound(MAX_SERVER_RESOURCES) * PAGE} in its first ${pastBound(MAX_SERVER_RESOURCES)} pages); Airlock lists the first ${MAX_SERVER_RESOURCES}`;
    expect(view.warning).toBe(cut);
    const listed = (await t.app.control.listRemotes()).find((r) => r.name === 'endless')!;
    expect(listed.warning).toBe(cut);
    expect(formatRemote(listed)).toContain(cut);

    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    const uris = (await c.listResources()).resources.map((r) => r.uri);
    expect(uris).toHaveLength(MAX_SERVER_RESOURCES);
    expect(uris[0]).toBe('airlock://endless/mem://r/0');
    expect(uris.at(-1)).toBe(`airlock://endless/mem://r/${MAX_SERVER_RESOURCES - 1}`);
    // The server's tools and prompts are unaffected.
    expect((await c.listTools()).tools.map((x) => x.name)).toContain('endless__t0');
    expect((await c.listPrompts()).prompts.map((p) => p.name)).toContain('endless__p0');
    // A resource past the cut is read by its airlock:// form, routed by the server's name.
    const past = `airlock://endless/mem://r/${MAX_SERVER_RESOURCES + 5}`;
    const read = await c.readResource({ uri: past });
    expect(read.contents[0]).toMatchObject({
      uri: past,
      text: `read mem://r/${MAX_SERVER_RESOURCES + 5}`,
    });
  });

  it("in many small pages, under every bound, is served them all: the page bound is the budget's, not the SDK's 64", async () => {
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    // 100 pages of 5: 500 of each, far under the bounds, in more pages than the SDK's default 64.
    const up = await endlessLister(['tools', 'resources', 'resourceTemplates', 'prompts'], {
      perPage: 5,
      pages: 100,
    });
    const view = await t.app.control.addRemote({ name: 'paged', url: up.url });
    // Before, the SDK's walk threw "exceeded listMaxPages (64)": the server was in error, its
    // templates (whose failures are read as "none") silently empty.
    expect(view.detail).toBeUndefined();
    expect(view.state).toBe('ready');
    expect(view.toolCount).toBe(500);
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    expect((await c.listResources()).resources).toHaveLength(500);
    expect((await c.listResourceTemplates()).resourceTemplates).toHaveLength(500);
    expect((await c.listPrompts()).prompts).toHaveLength(500);
  });

  it('in empty pages without end is in error (tools) or cut (resources) at the page bound', async () => {
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    const tools = await endlessLister(['tools'], { perPage: 0 });
    await t.app.control.addRemote({ name: 'empty', url: tools.url });
    const remote = async () => (await t.app.control.listRemotes()).find((r) => r.name === 'empty');
    await until(t.app, async () => (await remote())?.state === 'error');
    expect((await remote())?.detail).toContain(
      `the server's tools did not end within ${MAX_LIST_PAGES} pages; Airlock reads at most ${MAX_LIST_PAGES} pages of a list`,
    );
    expect(Math.max(...tools.walks['tools/list']!)).toBe(MAX_LIST_PAGES);

    const resources = await endlessLister(['resources'], { perPage: 0 });
    const view = await t.app.control.addRemote({ name: 'empty-res', url: resources.url });
    expect(view.state).toBe('ready');
    expect(view.warning).toBe(
      `the server's resources did not end within ${MAX_LIST_PAGES} pages; Airlock lists the 0 in them`,
    );
    expect(Math.max(...resources.walks['resources/list']!)).toBe(MAX_LIST_PAGES);
  });
});
