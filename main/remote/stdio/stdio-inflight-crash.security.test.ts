import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import {
  agentClient,
  startRemoteApp,
  toolsOffered,
  until,
} from '../../../test-support/remote-app.js';
import { resetInFlightPeak, upstreamInFlight } from '../upstream/in-flight.js';

/**
 * A local server that dies halfway through writing a large answer: the half line it left is
 * counted in the process-wide in-flight budget (upstream/in-flight.ts) and must be given back when
 * the process is gone, or every crash mid-answer would shrink the budget for good (review of h-mem).
 */
const cleanup = cleanupAfterEach();

const server = `
const out = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
let rest = '';
let dying = false; // nothing more once the half answer is out: it must stay half a line
process.stdin.on('data', (d) => {
  const lines = (rest + d).split('\\n');
  rest = lines.pop();
  for (const line of lines) {
    if (!line.trim() || dying) continue;
    const m = JSON.parse(line);
    if (m.method === 'initialize')
      out({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'local', version: '1' } } });
    else if (m.method === 'tools/list')
      out({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'crash', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] } });
    else if (m.method === 'tools/call' && (dying = true))
      process.stdout.write('{"jsonrpc":"2.0","id":' + m.id + ',"result":{"content":[{"type":"text","text":"' + 'A'.repeat(3 * 1024 * 1024), () => process.exit(3));
    else if (m.id !== undefined) out({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } });
  }
});
`;

describe('a local server that exits halfway through a large answer', () => {
  it('gives back the half line’s share of the in-flight budget', async () => {
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    const added = await t.app.control.addRemote({
      name: 'local',
      stdio: {
        command: process.execPath,
        args: ['-e', server],
        sandbox: { allowUnsandboxed: true },
      },
    });
    expect(added).toMatchObject({ state: 'ready' });
    await toolsOffered(t.app, ['local__crash']);
    const first = (await t.app.control.listRemotes()).find((r) => r.name === 'local')!.process!.pid;
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());

    resetInFlightPeak();
    const r = await c.callTool({ name: 'local__crash', arguments: {} });
    expect(r.isError).toBe(true);
    console.log('DBG', JSON.stringify(r), upstreamInFlight());
    // The server is started again: the old one's transport has ended.
    await until(t.app, async () => {
      const v = (await t.app.control.listRemotes()).find((x) => x.name === 'local');
      return v?.state === 'ready' && v.process?.pid !== undefined && v.process.pid !== first;
    });
    // Not vacuous: the half line was counted while it was held.
    expect(upstreamInFlight().peak).toBeGreaterThan(3 * 1024 * 1024);
    expect(upstreamInFlight().now).toBe(0);
  });
});
