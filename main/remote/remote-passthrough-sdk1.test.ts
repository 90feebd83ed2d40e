import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
import { EverythingServer } from '../../test-support/server-everything.js';

/**
 * Issue 14, "Must hold", with a 1.x SDK client (the one mcp-remote and the
 * MCP Inspector use): the same passthrough as remote-passthrough.test.ts.
 */
let es: EverythingServer;
let t: RemoteTestApp;
let c: Client;
const logs: unknown[] = [];
const updated: string[] = [];
const waiters: (() => void)[] = [];
const poke = () => waiters.splice(0).forEach((w) => w());
const until = (check: () => boolean) =>
  new Promise<void>((resolve) => {
    const test = () => (check() ? resolve() : waiters.push(test));
    test();
  });
const text = (r: object) =>
  ((r as { content?: { text?: string }[] }).content ?? []).map((x) => x.text ?? '').join('\n');
const allow = (name: string) =>
  t.app.control.setToolPolicy(name, { approval: 'auto', confirmDestructive: true });

beforeAll(async () => {
  es = await EverythingServer.start();
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'everything', url: es.url });
  c = new Client(
    { name: 'sdk1-agent', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: {} } },
  );
  c.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    model: 'sdk1-model',
    content: { type: 'text', text: 'sampled by the 1.x agent' },
  }));
  c.setRequestHandler(ElicitRequestSchema, async (req) =>
    req.params.mode === 'url'
      ? { action: 'accept' }
      : { action: 'accept', content: { name: 'Grace', check: true } },
  );
  c.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: 'file:///work/sdk1-root', name: 'sdk1 root' }],
  }));
  c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params.data);
    poke();
  });
  c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updated.push(n.params.uri);
    poke();
  });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    }),
  );
}, 60_000);

afterAll(async () => {
  await c?.close();
  await t?.stop();
  await es?.kill();
});

describe('server-everything behind Airlock, with a 1.x SDK client', () => {
  it('resources: list, read, templates, subscribe', async () => {
    const { resources } = await c.listResources();
    const uri = resources[0]!.uri;
    expect(uri).toMatch(/^airlock:\/\/everything\//);
    expect((await c.readResource({ uri })).contents[0]!.uri).toBe(uri);
    const { resourceTemplates } = await c.listResourceTemplates();
    expect(resourceTemplates.length).toBeGreaterThan(0);
    await c.subscribeResource({ uri });
    await allow('everything__toggle-subscriber-updates');
    await c.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
    await until(() => updated.includes(uri));
    await c.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
  });

  it('prompts with arguments and an embedded resource; completion', async () => {
    const names = (await c.listPrompts()).prompts.map((p) => p.name);
    expect(names).toContain('everything__args-prompt');
    const args = await c.getPrompt({
      name: 'everything__args-prompt',
      arguments: { city: 'Porto' },
    });
    expect(JSON.stringify(args.messages)).toContain('Porto');
    const res = await c.getPrompt({
      name: 'everything__resource-prompt',
      arguments: { resourceType: 'Blob', resourceId: '2' },
    });
    expect(res.messages.some((m) => m.content.type === 'resource')).toBe(true);
    const done = await c.complete({
      ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
      argument: { name: 'department', value: 'Sa' },
    });
    expect(done.completion.values).toEqual(['Sales']);
  });

  it('logging at the level the agent set', async () => {
    await c.setLoggingLevel('debug');
    await allow('everything__toggle-simulated-logging');
    await c.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
    await until(() => logs.some((d) => /level message|level-message/i.test(String(d))));
    await c.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
  });

  it('sampling, form elicitation, URL elicitation and roots reach the 1.x agent', async () => {
    for (const n of [
      'trigger-sampling-request',
      'trigger-elicitation-request',
      'trigger-url-elicitation',
      'get-roots-list',
    ])
      await allow(`everything__${n}`);
    const s = await c.callTool({
      name: 'everything__trigger-sampling-request',
      arguments: { prompt: 'hi' },
    });
    expect(text(s)).toContain('sampled by the 1.x agent');
    const f = await c.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} });
    expect(text(f)).toContain('Grace');
    const u = await c.callTool({
      name: 'everything__trigger-url-elicitation',
      arguments: { url: 'https://example.com/sdk1' },
    });
    expect(text(u)).toContain('completed the URL elicitation');
    const r = await c.callTool({ name: 'everything__get-roots-list', arguments: {} });
    expect(text(r)).toContain('file:///work/sdk1-root');
  });
});
