import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
import type { RemoteSource } from './remote-source.js';
import { EverythingServer } from '../../test-support/server-everything.js';

/**
 * Issue 14, "Must hold": everything MCP carries — resources, templates,
 * subscriptions, prompts, completion, logging, and the upstream's sampling,
 * elicitation and roots requests — passes through Airlock from the real
 * server-everything to a real v2 SDK client, each with an asserted result.
 */
let es: EverythingServer;
let t: RemoteTestApp;
let c: Client;
const seen = { sampling: 0, elicitForm: 0, elicitUrl: 0, roots: 0 };
const logs: { level: string; logger?: string; data: unknown }[] = [];
const updated: string[] = [];
const waiters: (() => void)[] = [];
const poke = () => waiters.splice(0).forEach((w) => w());
const until = (check: () => boolean) =>
  new Promise<void>((resolve) => {
    const test = () => (check() ? resolve() : waiters.push(test));
    test();
  });
const text = (r: { content?: unknown }) =>
  ((r.content as { type: string; text?: string }[]) ?? []).map((x) => x.text ?? '').join('\n');

async function capableAgent(token: string): Promise<Client> {
  const client = new Client(
    { name: 'passthrough-agent', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: {} } },
  );
  client.setRequestHandler('sampling/createMessage', async () => {
    seen.sampling++;
    return {
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: 'sampled by the agent' },
    };
  });
  client.setRequestHandler('elicitation/create', async (req) => {
    if (req.params.mode === 'url') {
      seen.elicitUrl++;
      return { action: 'accept' };
    }
    seen.elicitForm++;
    return { action: 'accept', content: { name: 'Ada', check: true } };
  });
  client.setRequestHandler('roots/list', async () => {
    seen.roots++;
    return { roots: [{ uri: 'file:///work/agent-root', name: 'agent root' }] };
  });
  client.setNotificationHandler('notifications/message', (n) => {
    logs.push(n.params);
    poke();
  });
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    updated.push(n.params.uri);
    poke();
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** These server-everything tools are not read-only; the tests are not about approvals. */
async function allow(name: string): Promise<void> {
  await t.app.control.setToolPolicy(name, { approval: 'auto', confirmDestructive: true });
}

beforeAll(async () => {
  es = await EverythingServer.start();
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'everything', url: es.url });
  c = await capableAgent(t.token);
}, 60_000);

afterAll(async () => {
  await c?.close();
  await t?.stop();
  await es?.kill();
});

describe('server-everything behind Airlock: beyond tools (v2 SDK client)', () => {
  it('lists and reads resources under airlock://everything/<original URI>, recorded in Activity', async () => {
    const { resources } = await c.listResources();
    expect(resources.length).toBeGreaterThan(0);
    for (const r of resources) expect(r.uri).toMatch(/^airlock:\/\/everything\//);
    const first = resources[0]!;
    const read = await c.readResource({ uri: first.uri });
    expect(read.contents.length).toBeGreaterThan(0);
    expect(read.contents[0]!.uri).toBe(first.uri);
    expect(read._meta?.['airlock/untrusted']).toEqual({ source: 'remote', server: 'everything' });
    const activity = await t.app.control.listActivity({ limit: 5 });
    expect(
      activity.some((a) => a.tool === 'everything: resources/read' && a.outcome === 'ok'),
    ).toBe(true);
  });

  it('lists resource templates whose expansion reads through Airlock', async () => {
    const { resourceTemplates } = await c.listResourceTemplates();
    const textTemplate = resourceTemplates.find((x) => x.uriTemplate.includes('/text/'))!;
    expect(textTemplate.uriTemplate).toMatch(/^airlock:\/\/everything\/demo:\/\/resource\/dynamic/);
    const uri = textTemplate.uriTemplate.replace(/\{[^}]+\}/, '7');
    const read = await c.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri });
    expect(JSON.stringify(read.contents[0])).toContain('7');
  });

  it('an unknown resource is a clear error naming the URI form', async () => {
    await expect(c.readResource({ uri: 'demo://resource/static/x' })).rejects.toThrow(
      /airlock:\/\/<server>\/<uri>/,
    );
  });

  it('lists prompts under the tool naming rule and gets one with arguments and one with an embedded resource', async () => {
    const { prompts } = await c.listPrompts();
    const names = prompts.map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['everything__simple-prompt', 'everything__args-prompt']),
    );
    const args = await c.getPrompt({
      name: 'everything__args-prompt',
      arguments: { city: 'Lisbon', state: 'Portugal' },
    });
    expect(JSON.stringify(args.messages)).toContain('Lisbon');
    const res = await c.getPrompt({
      name: 'everything__resource-prompt',
      arguments: { resourceType: 'Text', resourceId: '3' },
    });
    expect(res.messages.some((m) => m.content.type === 'resource')).toBe(true);
  });

  it('completes a prompt argument', async () => {
    const r = await c.complete({
      ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    expect(r.completion.values).toEqual(['Engineering']);
  });

  it('forwards upstream log lines at the level the agent set', async () => {
    await c.setLoggingLevel('debug');
    await allow('everything__toggle-simulated-logging');
    await c.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
    await until(() => logs.length > 0);
    expect(logs[0]!.logger).toMatch(/^everything/);
    await c.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
  });

  it('relays resources/subscribe and delivers notifications/resources/updated to the subscriber', async () => {
    const { resources } = await c.listResources();
    const uri = resources[0]!.uri;
    await c.subscribeResource({ uri });
    await allow('everything__toggle-subscriber-updates');
    await c.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
    await until(() => updated.includes(uri));
    expect(updated).toContain(uri);
    await c.unsubscribeResource({ uri });
    await c.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
  });

  it('relays sampling to the calling agent and records it in Activity', async () => {
    await allow('everything__trigger-sampling-request');
    const r = await c.callTool({
      name: 'everything__trigger-sampling-request',
      arguments: { prompt: 'hello' },
    });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toContain('sampled by the agent');
    expect(seen.sampling).toBe(1);
    const activity = await t.app.control.listActivity({ limit: 10 });
    expect(activity.some((a) => a.tool === 'everything: sampling/createMessage')).toBe(true);
  });

  it('relays form elicitation, URL elicitation and roots', async () => {
    await allow('everything__trigger-elicitation-request');
    const form = await c.callTool({
      name: 'everything__trigger-elicitation-request',
      arguments: {},
    });
    expect(text(form)).toContain('Ada');
    await allow('everything__trigger-url-elicitation');
    const url = await c.callTool({
      name: 'everything__trigger-url-elicitation',
      arguments: { url: 'https://example.com/consent' },
    });
    expect(text(url)).toContain('completed the URL elicitation');
    expect(seen.elicitUrl).toBe(1);
  });

  it('relays roots/list, which server-everything asks outside the call, to the agent of its session', async () => {
    await allow('everything__get-roots-list');
    const roots = await c.callTool({ name: 'everything__get-roots-list', arguments: {} });
    expect(text(roots)).toContain('file:///work/agent-root');
  });

  it('an agent without the sampling capability gets the upstream a clear refusal, not -32601', async () => {
    const plain = new Client({ name: 'plain-agent', version: '1.0.0' });
    await plain.connect(
      new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
      }),
    );
    try {
      const r = await plain.callTool({
        name: 'everything__trigger-sampling-request',
        arguments: { prompt: 'hello' },
      });
      expect(text(r)).toMatch(/did not declare the sampling capability/);
      expect(text(r)).not.toContain('-32601');
      expect(seen.sampling).toBe(1);
    } finally {
      await plain.close();
    }
  });

  it("one agent's log level and subscriptions never reach another; its upstream session closes with its last session", async () => {
    const { token } = await t.app.control.addAgent('other');
    const otherLogs: unknown[] = [];
    const other = new Client({ name: 'other-agent', version: '1.0.0' });
    other.setNotificationHandler('notifications/message', (n) => {
      otherLogs.push(n.params.data);
    });
    const otherTransport = new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    await other.connect(otherTransport);
    await other.setLoggingLevel('debug');
    await other.callTool({ name: 'everything__echo', arguments: { message: 'hi' } });
    const source = t.app.registry
      .listSources()
      .find((s) => s.id === 'remote:everything') as RemoteSource;
    expect(source.agentSessions()).toContain('other');

    logs.length = 0;
    await c.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });
    await until(() => logs.some((l) => /level message|level-message/i.test(String(l.data))));
    // The other agent's session is its own upstream session: the toggle did not start logging there.
    await other.callTool({ name: 'everything__echo', arguments: { message: 'sync' } });
    expect(otherLogs.filter((d) => /level message|level-message/i.test(String(d)))).toEqual([]);
    await c.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} });

    // Ending the agent's only session (DELETE) closes its upstream session at once.
    await otherTransport.terminateSession();
    await other.close();
    expect(source.agentSessions()).not.toContain('other');
    expect(source.agentSessions()).toContain('test');
  });

  it('a 2026-07-28 agent gets sampling and elicitation as input_required and answers on its retry', async () => {
    const modern = new Client(
      { name: 'modern-agent', version: '1.0.0' },
      {
        versionNegotiation: { mode: 'auto' },
        capabilities: { sampling: {}, elicitation: { form: {} } },
      },
    );
    let sampled = 0;
    modern.setRequestHandler('sampling/createMessage', async () => {
      sampled++;
      return {
        role: 'assistant',
        model: 'modern-model',
        content: { type: 'text', text: 'sampled through input_required' },
      };
    });
    modern.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { name: 'Lin', check: true },
    }));
    await modern.connect(
      new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
      }),
    );
    try {
      expect(modern.getProtocolEra()).toBe('modern');
      const s = await modern.callTool({
        name: 'everything__trigger-sampling-request',
        arguments: { prompt: 'modern' },
      });
      expect(text(s)).toContain('sampled through input_required');
      expect(sampled).toBe(1);
      const f = await modern.callTool({
        name: 'everything__trigger-elicitation-request',
        arguments: {},
      });
      expect(text(f)).toContain('Lin');
    } finally {
      await modern.close();
    }
  });
});
