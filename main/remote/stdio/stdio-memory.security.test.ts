import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import {
  agentClient,
  startRemoteApp,
  toolsOffered,
  until,
  type RemoteTestApp,
} from '../../../test-support/remote-app.js';
import { resetInFlightPeak, upstreamInFlight } from '../upstream/in-flight.js';
import { UPSTREAM_VALUE_LIMIT } from '../upstream/json-values.js';
import { LineReader } from './line-reader.js';

/**
 * The stdio leg's answers are bounded as the HTTP leg's are (upstream-memory.security.test.ts): a
 * line is at most 10 MB (the SDK's bound, line-reader.ts), holds at most 2 Mi JSON values
 * (upstream/json-values.ts), and counts towards the in-flight budget (upstream/in-flight.ts). A
 * hand-written local server answers `tiny` with 9 MiB of empty objects on one line (≈ 200 MB of
 * heap once parsed), and `endless` with output that never ends its line.
 */
const cleanup = cleanupAfterEach();

const server = `
const out = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const tools = ['fine', 'tiny', 'endless'].map((name) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }));
let rest = '';
process.stdin.on('data', (d) => {
  const lines = (rest + d).split('\\n');
  rest = lines.pop();
  for (const line of lines) {
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    const tool = m.method === 'tools/call' ? m.params.name : undefined;
    if (m.method === 'initialize')
      out({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'local', version: '1' } } });
    else if (m.method === 'tools/list') out({ jsonrpc: '2.0', id: m.id, result: { tools } });
    else if (tool === 'fine') out({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'fine answer' }] } });
    else if (tool === 'tiny')
      // The id last, as the TypeScript SDK writes an answer ({ result, jsonrpc, id }).
      process.stdout.write('{"result":{"content":[' + '{},'.repeat(3 * 1024 * 1024) + '{}]},"jsonrpc":"2.0","id":' + JSON.stringify(m.id) + '}\\n');
    else if (tool === 'endless') {
      const block = 'A'.repeat(65536);
      const more = () => { while (process.stdout.write(block)); process.stdout.once('drain', more); };
      more();
    } else if (m.id !== undefined) out({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } });
  }
});
`;

const text = (r: { content?: unknown }) =>
  ((r.content as { text?: string }[]) ?? []).map((b) => b.text ?? '').join('\n');

async function local(): Promise<{ t: RemoteTestApp; c: Client }> {
  const t = await startRemoteApp();
  cleanup.push(() => t.stop());
  const added = await t.app.control.addRemote({
    name: 'local',
    stdio: { command: process.execPath, args: ['-e', server], sandbox: { allowUnsandboxed: true } },
  });
  expect(added).toMatchObject({ state: 'ready' });
  await toolsOffered(t.app, ['local__fine', 'local__tiny']);
  const c = await agentClient(t.started.mcpUrl, t.token);
  cleanup.push(() => c.close());
  return { t, c };
}

describe('a local server', () => {
  it('answering with a line of tiny values: the call fails at once, unparsed, naming the limit; the server goes on', async () => {
    const { c } = await local();
    const r = await c.callTool({ name: 'local__tiny', arguments: {} });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('"local"');
    expect(text(r)).toContain(
      `holding more than ${UPSTREAM_VALUE_LIMIT.toLocaleString('en')} JSON values; Airlock did not parse it`,
    );
    const after = await c.callTool({ name: 'local__fine', arguments: {} });
    expect(text(after)).toContain('fine answer');
    expect(upstreamInFlight().now).toBe(0);
  });

  it('printing a line without end: Airlock holds at most 10 MB of it, and the server is started again', async () => {
    const { t, c } = await local();
    const first = (await t.app.control.listRemotes()).find((r) => r.name === 'local')!.process!.pid;
    resetInFlightPeak();
    const r = await c.callTool({ name: 'local__endless', arguments: {} });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('"local"');
    expect(text(r)).toContain('the server wrote a line longer than 10 MiB');
    // Counted in the budget as it came (up to a pipe read short of the bound), and no further.
    expect(upstreamInFlight().peak).toBeGreaterThan(9 * 1024 * 1024);
    expect(upstreamInFlight().peak).toBeLessThanOrEqual(10 * 1024 * 1024);
    expect(upstreamInFlight().now).toBe(0);
    await until(t.app, async () => {
      const v = (await t.app.control.listRemotes()).find((x) => x.name === 'local');
      return v?.state === 'ready' && v.process?.pid !== undefined && v.process.pid !== first;
    });
    const after = await c.callTool({ name: 'local__fine', arguments: {} });
    expect(text(after)).toContain('fine answer');
  });

  it('past the bound, its reader reads no more, so nothing is held that nothing would give back', () => {
    const r = new LineReader();
    const before = upstreamInFlight().now;
    const block = Buffer.alloc(65536, 0x41);
    expect(() => {
      for (;;) r.append(block);
    }).toThrow('the server wrote a line longer than 10 MiB');
    r.append(block); // output the pipe still had
    expect(upstreamInFlight().now).toBe(before);
  });
});
