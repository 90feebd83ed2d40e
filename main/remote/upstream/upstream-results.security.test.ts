import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Logger } from '../../platform/log.js';
import { RemoteSource } from '../remote-source.js';
import { callToolResultProblem } from './upstream-client.js';
import { cannedMcp } from '../../../test-support/canned-upstream.js';

/**
 * A hostile 2025-era upstream, written by hand so it can send what no SDK server would: tool
 * results of the wrong shape. The upstream leg checks the shape Airlock's own code relies on
 * (issue 20 moved the full schema check to the one pass Airlock's server makes); a malformed
 * result must come back as a clear tool error naming the server, never half-processed.
 */
let server: Server | undefined;
let source: RemoteSource | undefined;
afterEach(async () => {
  await source?.stop();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

async function hostile(result: unknown, sse: boolean): Promise<string> {
  server = createServer(cannedMcp({ name: 'hostile', callResult: result, sse }));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

async function callThrough(result: unknown, sse = false) {
  source = new RemoteSource(
    { name: 'hostile', url: await hostile(result, sse), headers: {} },
    { logger: new Logger({ stderr: false }), version: 'test' },
  );
  source.start();
  await source.settled();
  expect(source.status()).toEqual({ state: 'ready' });
  const r = await source.call('echo', {}, { agent: 'a', signal: new AbortController().signal });
  const text = (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
  return { isError: r.isError === true, text };
}

describe.each([
  ['JSON', false],
  ['SSE', true],
])('malformed tool results from an upstream (%s answers)', (_how, sse) => {
  it.each([
    ['content is a string', { content: 'Echo: x' }, '"content" is not a list'],
    ['a block without a type', { content: [{ text: 'x' }] }, 'content[0] is not a content block'],
    ['isError is a string', { content: [], isError: 'yes' }, '"isError" is not a boolean'],
    // The JSON-RPC envelope check catches this one first (the SDK's zod one over JSON).
    ['_meta is a list', { content: [], _meta: [] }, 'did not pass on'],
  ])('%s: a tool error naming the server, nothing passed on', async (_what, result, problem) => {
    const r = await callThrough(result, sse);
    expect(r.isError).toBe(true);
    expect(r.text).toContain('The remote server "hostile" answered with a malformed result');
    expect(r.text).toContain(problem);
    expect(r.text).not.toContain('Echo: x');
  });

  it('a well-formed result passes, marked as untrusted', async () => {
    const r = await callThrough({ content: [{ type: 'text', text: 'Echo: fine' }] }, sse);
    expect(r.isError).toBe(false);
    expect(r.text).toContain('Echo: fine');
    expect(r.text).toContain('comes from the remote MCP server "hostile"');
  });

  it('the structural check itself', () => {
    expect(callToolResultProblem({ content: [{ type: 'text', text: 'x' }] })).toBeNull();
    expect(callToolResultProblem({ structuredContent: { a: 1 }, content: [] })).toBeNull();
    expect(callToolResultProblem(null)).toBe('the result is not an object');
    expect(callToolResultProblem([])).toBe('the result is not an object');
  });
});
