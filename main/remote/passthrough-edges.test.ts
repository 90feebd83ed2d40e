import { ProtocolError, type Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { connectClient } from '../../test-support/harness.js';
import { startRemoteApp } from '../../test-support/remote-app.js';
import { UNTRUSTED_META_KEY } from '../tools/untrusted.js';

/**
 * What MCP carries passes through Airlock whole, in both eras of the agent (2025 sessions and
 * 2026-07-28), from a real SDK server to a real SDK client: paged lists gathered and namespaced in
 * order; a 300 kB blob byte for byte; titles, icons, annotations and the server's `_meta` on
 * definitions, results and content blocks; every content type; `structuredContent`; fractional
 * progress with total and message; completion with its context and `total`/`hasMore`; and a
 * JSON-RPC error with its code and `data` (a read's as such, a call's in its tool error). Each assertion names what a gateway could drop.
 */
const cleanup = cleanupAfterEach();
const BLOB = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256)).toString(
  'base64',
);
const ICON = [{ src: 'https://example.com/i.png', mimeType: 'image/png', sizes: ['48x48'] }];

/** `count` items served `size` at a time, the cursor being the next index. */
function paged<T>(items: T[], size: number, cursor: string | undefined) {
  const at = Number(cursor ?? 0);
  const next = at + size;
  return {
    page: items.slice(at, next),
    ...(next < items.length ? { nextCursor: String(next) } : {}),
  };
}

async function upstream(): Promise<FakeUpstream> {
  const resources = Array.from({ length: 5 }, (_, i) => ({
    uri: `mem://r/${i}`,
    name: `r${i}`,
    title: `R ${i}`,
    icons: ICON,
    annotations: { audience: ['user' as const], priority: 0.5 },
    _meta: { 'example.com/i': i },
  }));
  const templates = [0, 1, 2].map((i) => ({ uriTemplate: `mem://t${i}/{x}`, name: `t${i}` }));
  const prompts = [0, 1, 2].map((i) => ({
    name: `p${i}`,
    title: `P ${i}`,
    icons: ICON,
    arguments: [{ name: 'a', required: false }],
  }));
  const up = new FakeUpstream({
    name: 'svc',
    capabilities: { resources: {}, prompts: {}, completions: {} },
    extend: (server: Server) => {
      server.setRequestHandler('resources/list', async (req) => {
        const { page, ...rest } = paged(resources, 2, req.params?.cursor);
        return { resources: page, ...rest };
      });
      server.setRequestHandler('resources/templates/list', async (req) => {
        const { page, ...rest } = paged(templates, 1, req.params?.cursor);
        return { resourceTemplates: page, ...rest };
      });
      server.setRequestHandler('prompts/list', async (req) => {
        const { page, ...rest } = paged(prompts, 1, req.params?.cursor);
        return { prompts: page, ...rest };
      });
      server.setRequestHandler('resources/read', async (req) => {
        if (req.params.uri === 'mem://r/1')
          return {
            contents: [{ uri: req.params.uri, mimeType: 'application/octet-stream', blob: BLOB }],
            _meta: { 'example.com/read': true },
          };
        throw new ProtocolError(-32602, 'no such resource', { uri: req.params.uri });
      });
      server.setRequestHandler('prompts/get', async () => ({
        description: 'd',
        messages: [
          { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
          { role: 'assistant', content: { type: 'audio', data: 'BBBB', mimeType: 'audio/wav' } },
        ],
      }));
      server.setRequestHandler('completion/complete', async (req) => ({
        completion: {
          values: [`${req.params.ref.type}|${JSON.stringify(req.params.context ?? null)}`],
          total: 10,
          hasMore: true,
        },
      }));
    },
    tools: [
      {
        name: 'refuses',
        annotations: { readOnlyHint: true },
        run: async () => {
          throw new ProtocolError(-32602, 'bad range', { field: 'n', max: 3 });
        },
      },
      {
        name: 'rich',
        annotations: { readOnlyHint: true, title: 'Rich' },
        outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
        extra: { icons: ICON, _meta: { 'example.com/def': true } },
        run: async (_a, ctx) => {
          await ctx.progress(0.25, 1.5, 'a quarter');
          await ctx.progress(0.5);
          return {
            structuredContent: { n: 1.5 },
            _meta: { 'example.com/res': 'kept' },
            content: [
              {
                type: 'text',
                text: '{"n":1.5}',
                annotations: { audience: ['user'], priority: 0.3 },
                _meta: { 'example.com/b': 1 },
              },
              { type: 'image', data: 'AAAA', mimeType: 'image/png' },
              { type: 'audio', data: 'BBBB', mimeType: 'audio/wav' },
              { type: 'resource_link', uri: 'mem://r/2', name: 'r2', title: 'R2', size: 12 },
              {
                type: 'resource',
                resource: { uri: 'mem://r/1', blob: 'CCCC', mimeType: 'application/x' },
              },
            ],
          };
        },
      },
    ],
  });
  await up.start();
  cleanup.push(() => up.stop());
  return up;
}

describe('edges of passthrough, from an SDK server to an SDK client', () => {
  it.each(['legacy', 'auto'] as const)(
    '%s negotiation',
    async (mode) => {
      const up = await upstream();
      const t = await startRemoteApp();
      cleanup.push(() => t.stop());
      await t.app.control.addRemote({ name: 'svc', url: up.url });
      const c = await connectClient(t.started.mcpUrl, t.token, mode);
      cleanup.push(() => c.close());

      // Paged lists: every page, in order, namespaced, definitions whole.
      const { resources } = await c.listResources();
      expect(resources.map((r) => r.uri)).toEqual(
        [0, 1, 2, 3, 4].map((i) => `airlock://svc/mem://r/${i}`),
      );
      expect(resources[3]).toMatchObject({
        title: 'R 3',
        icons: ICON,
        annotations: { audience: ['user'], priority: 0.5 },
        _meta: { 'example.com/i': 3 },
      });
      expect((await c.listResourceTemplates()).resourceTemplates.map((x) => x.uriTemplate)).toEqual(
        [0, 1, 2].map((i) => `airlock://svc/mem://t${i}/{x}`),
      );
      const { prompts } = await c.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(['svc__p0', 'svc__p1', 'svc__p2']);
      expect(prompts[2]).toMatchObject({ title: 'P 2', icons: ICON });

      // A blob well past the text cap, byte for byte, with the server's _meta.
      const blob = await c.readResource({ uri: 'airlock://svc/mem://r/1' });
      expect(blob.contents).toEqual([
        { uri: 'airlock://svc/mem://r/1', mimeType: 'application/octet-stream', blob: BLOB },
      ]);
      expect(blob._meta).toMatchObject({ 'example.com/read': true });

      // A read's error: code and data kept, the server named.
      const err = (await c.readResource({ uri: 'airlock://svc/mem://r/4' }).catch((e) => e)) as {
        code: number;
        data: unknown;
        message: string;
      };
      expect(err.code).toBe(-32602);
      expect(err.data).toEqual({ uri: 'mem://r/4' });
      expect(err.message).toContain('"svc"');

      // Prompt content of every binary type.
      const got = await c.getPrompt({ name: 'svc__p0', arguments: { a: 'x' } });
      expect(got.messages).toEqual([
        { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
        { role: 'assistant', content: { type: 'audio', data: 'BBBB', mimeType: 'audio/wav' } },
      ]);

      // Completion: the context goes to the server, total and hasMore come back.
      const done = await c.complete({
        ref: { type: 'ref/prompt', name: 'svc__p0' },
        argument: { name: 'a', value: 'v' },
        context: { arguments: { b: 'c' } },
      });
      expect(done.completion).toEqual({
        values: ['ref/prompt|{"arguments":{"b":"c"}}'],
        total: 10,
        hasMore: true,
      });
      const tmpl = await c.complete({
        ref: { type: 'ref/resource', uri: 'airlock://svc/mem://t1/{x}' },
        argument: { name: 'x', value: 'v' },
      });
      expect(tmpl.completion.values).toEqual(['ref/resource|null']);

      // A tool: definition whole, result whole, progress fractional with total and message.
      const rich = (await c.listTools()).tools.find((x) => x.name === 'svc__rich')!;
      expect(rich).toMatchObject({
        icons: ICON,
        outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
        annotations: { title: 'Rich', readOnlyHint: true },
        _meta: { 'example.com/def': true },
      });
      const progress: unknown[] = [];
      const r = await c.callTool(
        { name: 'svc__rich', arguments: {} },
        { onprogress: (p) => void progress.push(p) },
      );
      expect(progress).toEqual([
        { progress: 0.25, total: 1.5, message: expect.stringMatching(/ a quarter$/) as string },
        { progress: 0.5 },
      ]);
      expect(r.structuredContent).toEqual({ n: 1.5 });
      expect(r._meta).toMatchObject({
        'example.com/res': 'kept',
        [UNTRUSTED_META_KEY]: { source: 'remote', server: 'svc' },
      });
      // After Airlock's one note for the model, the server's blocks as it sent them (its links
      // and embedded resources named the airlock:// way).
      expect((r.content as unknown[]).slice(1)).toEqual([
        {
          type: 'text',
          text: '{"n":1.5}',
          annotations: { audience: ['user'], priority: 0.3 },
          _meta: { 'example.com/b': 1 },
        },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'audio', data: 'BBBB', mimeType: 'audio/wav' },
        {
          type: 'resource_link',
          uri: 'airlock://svc/mem://r/2',
          name: 'r2',
          title: 'R2',
          size: 12,
        },
        {
          type: 'resource',
          resource: { uri: 'airlock://svc/mem://r/1', blob: 'CCCC', mimeType: 'application/x' },
        },
      ]);

      // A JSON-RPC error to a call is a tool error (the server's words marked as its content
      // is, issue 27 item 3): its code in Airlock's sentence, its data after its message.
      const refused = await c.callTool({ name: 'svc__refuses', arguments: {} });
      expect(refused.isError).toBe(true);
      const texts = (refused.content as { text: string }[]).map((b) => b.text);
      expect(texts[0]).toBe(
        'The remote server "svc" answered with an error (JSON-RPC error -32602); its message follows.',
      );
      expect(texts.slice(2)).toEqual(['bad range', 'Error data: {"field":"n","max":3}']);
    },
    60_000,
  );
});
