import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { SessionServer } from '../../test-support/session-server.js';
import { startRemoteApp, toolsOffered, type RemoteTestApp } from '../../test-support/remote-app.js';
import { LoneCallServer } from '../gateway/mcp-handlers/lone-call.js';

/**
 * Review of issue 34's lone call: the log lines an upstream sends while serving a call go on the
 * call's own stream, before its answer (issue 28 item 2; progress-order.test.ts holds this for
 * calls WITH a progress token, which never take the lone path). Here the calls carry no token,
 * so a 2025 agent's call is a lone call: its answer takes fewer turns to leave than on the SDK
 * path, and must still not overtake the lines the upstream sent before it.
 */
let t: RemoteTestApp;
const chatty = new SessionServer();

/**
 * A hand-written 2025 upstream whose answer to a call is one write: three log lines of the call,
 * then its result, in one SSE chunk (a reader gets them in one turn).
 */
function burstLog(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const m = JSON.parse(body) as {
      id?: number;
      method: string;
      params?: { arguments?: { text?: string } };
    };
    if (m.id === undefined) return void res.writeHead(202).end();
    const text = m.params?.arguments?.text ?? '';
    const result =
      m.method === 'initialize'
        ? {
            protocolVersion: '2025-06-18',
            capabilities: { tools: {}, logging: {} },
            serverInfo: { name: 'burstlog', version: '1' },
          }
        : m.method === 'tools/list'
          ? {
              tools: [
                {
                  name: 'echo',
                  inputSchema: { type: 'object' },
                  annotations: { readOnlyHint: true },
                },
              ],
            }
          : m.method === 'tools/call'
            ? { content: [{ type: 'text', text: `echo ${text}` }] }
            : {};
    const lines =
      m.method === 'tools/call'
        ? [1, 2, 3].map((i) => ({
            jsonrpc: '2.0',
            method: 'notifications/message',
            params: { level: 'info', data: `${text}#${i}` },
          }))
        : [];
    const all = [...lines, { jsonrpc: '2.0', id: m.id, result }];
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
    res.end(all.map((x) => `event: message\ndata: ${JSON.stringify(x)}\n\n`).join(''));
  });
}
const burst = createServer(burstLog);

/** The same from a local (stdio) server: three log lines and the result in one stdout write. */
const stdioLog = `
let rest = '';
process.stdin.on('data', (d) => {
  const lines = (rest + d).split('\\n');
  rest = lines.pop();
  for (const line of lines) {
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    const one = (x) => JSON.stringify(x) + '\\n';
    if (m.method === 'initialize')
      process.stdout.write(one({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {}, logging: {} }, serverInfo: { name: 'slog', version: '1' } } }));
    else if (m.method === 'tools/list')
      process.stdout.write(one({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] } }));
    else if (m.method === 'tools/call') {
      const text = (m.params.arguments || {}).text;
      const logs = [1, 2, 3].map((i) => one({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: text + '#' + i } }));
      process.stdout.write(logs.join('') + one({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'echo ' + text }] } }));
    } else if (m.id !== undefined) process.stdout.write(one({ jsonrpc: '2.0', id: m.id, result: {} }));
  }
});
`;

beforeAll(async () => {
  await chatty.start();
  await new Promise<void>((r) => burst.listen(0, '127.0.0.1', r));
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'chatty', url: chatty.url });
  const port = (burst.address() as AddressInfo).port;
  await t.app.control.addRemote({ name: 'burst', url: `http://127.0.0.1:${port}/mcp` });
  await t.app.control.addRemote({
    name: 'slog',
    stdio: {
      command: process.execPath,
      args: ['-e', stdioLog],
      sandbox: { allowUnsandboxed: true },
    },
  });
  await toolsOffered(t.app, ['chatty__echo', 'burst__echo', 'slog__echo']);
  await t.app.control.setToolPolicy('chatty__echo', { approval: 'auto', confirmDestructive: true });
}, 60_000);

afterEach(() => vi.restoreAllMocks());

afterAll(async () => {
  await t?.stop();
  await chatty.stop();
  burst.closeAllConnections();
  await new Promise((r) => burst.close(r));
});

const textOf = (r: unknown) =>
  ((r as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

async function connect(kind: 'v1' | 'v2', lines: string[], tool: string) {
  const init = { requestInit: { headers: { Authorization: `Bearer ${t.token}` } } };
  if (kind === 'v2') {
    const c = new Client(
      { name: 'logs-v2', version: '1' },
      { versionNegotiation: { mode: 'legacy' } },
    );
    c.setNotificationHandler(
      'notifications/message',
      (n) => void lines.push(String(n.params.data)),
    );
    await c.connect(new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), init));
    await c.setLoggingLevel('info');
    return {
      call: async (i: number) =>
        textOf(await c.callTool({ name: tool, arguments: { text: `c${i}`, log: 3 } })),
      close: () => c.close(),
    };
  }
  const c = new Client1({ name: 'logs-v1', version: '1' });
  c.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void lines.push(String(n.params.data)),
  );
  await c.connect(new Transport1(new URL(t.started.mcpUrl), init));
  await c.setLoggingLevel('info');
  return {
    call: async (i: number) =>
      textOf(await c.callTool({ name: tool, arguments: { text: `c${i}`, log: 3 } })),
    close: () => c.close(),
  };
}

describe.each([
  ['the lone path', true],
  ['the SDK path', false],
] as const)('%s: log lines of a call without a progress token', (_name, lone) => {
  it.each([
    ['v1', 'chatty__echo'],
    ['v2', 'chatty__echo'],
    ['v1', 'burst__echo'],
    ['v2', 'burst__echo'],
  ] as const)(
    "%s client, %s, 200 calls, 8 at a time: each call's three lines before its result",
    async (kind, tool) => {
      if (!lone) vi.spyOn(LoneCallServer.prototype, 'loneCallOf').mockReturnValue(undefined);
      const runLone = vi.spyOn(LoneCallServer.prototype, 'runLone');
      const lines: string[] = [];
      const { call, close } = await connect(kind, lines, tool);
      const wrong: { i: number; seen: string[] }[] = [];
      let next = 0;
      const worker = async () => {
        while (next < 200) {
          const i = next++;
          const text = await call(i);
          const seen = lines.filter((l) => l.startsWith(`c${i}#`));
          if (seen.join() !== `c${i}#1,c${i}#2,c${i}#3` || !text.includes(`echo c${i}`))
            wrong.push({ i, seen });
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      await close();
      expect(runLone.mock.calls.length > 0).toBe(lone);
      expect(wrong.slice(0, 3)).toEqual([]);
      expect(wrong).toHaveLength(0);
    },
    300_000,
  );
  // A local (stdio) server's lines carry no request of their own: on both paths (and on main)
  // they reach the agent outside the call's stream (the GET stream), in this review's runs after
  // its answer — not the lone call's doing; which comes first across two responses is not
  // asserted (no order holds between them), only that every line arrives on both paths.
  it.each(['v1', 'v2'] as const)(
    '%s client, a local server: all its lines arrive',
    async (kind) => {
      if (!lone) vi.spyOn(LoneCallServer.prototype, 'loneCallOf').mockReturnValue(undefined);
      const lines: string[] = [];
      const { call, close } = await connect(kind, lines, 'slog__echo');
      for (let i = 0; i < 20; i++) expect(await call(i)).toContain(`echo c${i}`);
      await eventually(() => expect(lines).toHaveLength(60));
      await close();
    },
    120_000,
  );
});
