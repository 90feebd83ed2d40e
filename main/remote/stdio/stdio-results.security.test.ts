import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentClient,
  startRemoteApp,
  toolsOffered,
  type RemoteTestApp,
} from '../../../test-support/remote-app.js';

/**
 * Issue 34: a local server's answers are read by LineReader (line-reader.ts). An answer to a call
 * that is not a valid JSON-RPC response fails that call at once with the reason — as over HTTP
 * (upstream-results.security.test.ts) — where the SDK's reader dropped it and the call waited for
 * its idle timeout. A hand-written stdio server answers each call to `bad_N` with the N-th broken
 * answer and `good` properly, so the connection is shown to go on after each.
 */
const BROKEN: unknown[] = [
  { jsonrpc: '2.0', id: '$ID', result: 'not an object' },
  { jsonrpc: '2.0', id: '$ID', result: { content: [] }, extra: 'member' },
  { jsonrpc: '2.0', id: '$ID', error: { code: 1.5, message: 'x' } },
  { jsonrpc: '2.0', id: '$ID', result: { content: 'not a list' } },
];

const server = `
const BROKEN = ${JSON.stringify(BROKEN)};
const tools = [{ name: 'good', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  ...BROKEN.map((_, i) => ({ name: 'bad_' + i, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }))];
const out = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
let rest = '';
process.stdin.on('data', (d) => {
  const lines = (rest + d).split('\\n');
  rest = lines.pop();
  for (const line of lines) {
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    if (m.method === 'initialize')
      out({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'broken', version: '1' } } });
    else if (m.method === 'tools/list') out({ jsonrpc: '2.0', id: m.id, result: { tools } });
    else if (m.method === 'ping') out({ jsonrpc: '2.0', id: m.id, result: {} });
    else if (m.method === 'tools/call' && m.params.name === 'good')
      out({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'fine' }] } });
    else if (m.method === 'tools/call')
      process.stdout.write(JSON.stringify(BROKEN[Number(m.params.name.slice(4))]).replace('"$ID"', JSON.stringify(m.id)) + '\\n');
    else if (m.id !== undefined) out({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } });
  }
});
`;

let t: RemoteTestApp;
let agent: Client;
beforeAll(async () => {
  t = await startRemoteApp();
  const added = await t.app.control.addRemote({
    name: 'broken',
    stdio: { command: process.execPath, args: ['-e', server], sandbox: { allowUnsandboxed: true } },
  });
  expect(added).toMatchObject({ state: 'ready' });
  await toolsOffered(t.app, ['broken__good', 'broken__bad_0']);
  agent = await agentClient(t.started.mcpUrl, t.token);
});
afterAll(async () => {
  await agent?.close();
  await t?.stop();
});

const text = (r: { content?: unknown }) =>
  ((r.content as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

describe('a local server answering a call with a broken answer', () => {
  it.each(BROKEN.map((b, i) => [i, JSON.stringify(b)]))(
    'bad_%i (%s): the call fails at once as malformed, and the server goes on',
    async (i) => {
      const r = await agent.callTool({ name: `broken__bad_${i}`, arguments: {} });
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(
        /"broken" answered with a malformed result, which Airlock did not pass on/,
      );
      const ok = await agent.callTool({ name: 'broken__good', arguments: {} });
      expect(text(ok)).toMatch(/fine/);
    },
  );
});
