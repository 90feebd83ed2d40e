import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRemoteApp, toolsOffered, type RemoteTestApp } from '../../test-support/remote-app.js';

/**
 * Review of h-up (lean-call.ts without the `.finally`): a hand-written 2025 upstream sends, for a
 * call, progress 1, log #1, progress 2, log #2, the answer and then a log line #after — all in one
 * write (`one`), or each event in a write of its own a few milliseconds apart (`split`). Through
 * Airlock, the agent must see progress 1, 2 and log lines #1, #2 before the result.
 */
type Mode = 'one' | 'split';

function upstream(mode: Mode): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const m = JSON.parse(body) as {
        id?: number;
        method: string;
        params?: { arguments?: { text?: string }; _meta?: { progressToken?: string | number } };
      };
      if (m.id === undefined) return void res.writeHead(202).end();
      const results: Record<string, unknown> = {
        initialize: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {}, logging: {} },
          serverInfo: { name: 'burst', version: '1' },
        },
        'tools/list': {
          tools: [
            { name: 'echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          ],
        },
      };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
      if (m.method !== 'tools/call') {
        const answer = { jsonrpc: '2.0', id: m.id, result: results[m.method] ?? {} };
        return void res.end(`event: message\ndata: ${JSON.stringify(answer)}\n\n`);
      }
      const text = m.params?.arguments?.text ?? '';
      const token = m.params?._meta?.progressToken;
      const log = (line: string) => ({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: `${text}#${line}` },
      });
      const progress = (p: number) => ({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: p },
      });
      const events = [
        ...(token === undefined ? [] : [progress(1)]),
        log('1'),
        ...(token === undefined ? [] : [progress(2)]),
        log('2'),
        { jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: `echo ${text}` }] } },
        log('after'),
      ].map((e) => `event: message\ndata: ${JSON.stringify(e)}\n\n`);
      if (mode === 'one') return void res.end(events.join(''));
      let i = 0;
      const next = () => {
        if (i === events.length) return void res.end();
        res.write(events[i++]);
        setTimeout(next, 3);
      };
      next();
    });
  };
}

let t: RemoteTestApp;
const servers: HttpServer[] = [];

beforeAll(async () => {
  t = await startRemoteApp();
  for (const mode of ['one', 'split'] as const) {
    const s = createServer(upstream(mode));
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as AddressInfo).port;
    await t.app.control.addRemote({ name: mode, url: `http://127.0.0.1:${port}/mcp` });
  }
  await toolsOffered(t.app, ['one__echo', 'split__echo']);
  for (const tool of ['one__echo', 'split__echo'])
    await t.app.control.setToolPolicy(tool, { approval: 'auto', confirmDestructive: true });
}, 60_000);

afterAll(async () => {
  await t?.stop();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const textOf = (r: unknown) =>
  (((r as { content?: unknown }).content as { type: string; text?: string }[] | undefined) ?? [])
    .map((c) => c.text ?? '')
    .join('\n');

type Call = (
  tool: string,
  text: string,
) => Promise<{ progress: number[]; text: string; lines: string[] }>;

async function agent(
  kind: 'v2-legacy' | 'v2-modern' | 'v1',
): Promise<{ call: Call; close: () => Promise<void> }> {
  const lines: string[] = [];
  const init = { requestInit: { headers: { Authorization: `Bearer ${t.token}` } } };
  if (kind === 'v1') {
    const c = new Client1({ name: 'up-v1', version: '1' });
    c.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n) => void lines.push(String(n.params.data)),
    );
    await c.connect(new Transport1(new URL(t.started.mcpUrl), init));
    await c.setLoggingLevel('info');
    return {
      call: async (tool, text) => {
        const progress: number[] = [];
        const r = await c.callTool({ name: tool, arguments: { text } }, undefined, {
          onprogress: (p) => progress.push(p.progress),
        });
        return {
          progress: [...progress],
          text: textOf(r),
          lines: lines.filter((l) => l.startsWith(`${text}#`)),
        };
      },
      close: () => c.close(),
    };
  }
  const c = new Client(
    { name: `up-${kind}`, version: '1' },
    { versionNegotiation: { mode: kind === 'v2-modern' ? 'auto' : 'legacy' } },
  );
  c.setNotificationHandler('notifications/message', (n) => void lines.push(String(n.params.data)));
  await c.connect(new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), init));
  if (kind === 'v2-legacy') await c.setLoggingLevel('info');
  return {
    call: async (tool, text) => {
      const progress: number[] = [];
      const r = await c.callTool(
        { name: tool, arguments: { text } },
        { onprogress: (p) => progress.push(p.progress) },
      );
      return {
        progress: [...progress],
        text: textOf(r),
        lines: lines.filter((l) => l.startsWith(`${text}#`)),
      };
    },
    close: () => c.close(),
  };
}

describe.each([['v2-legacy'], ['v2-modern'], ['v1']] as const)('agent %s', (kind) => {
  for (const mode of ['one', 'split'] as const)
    it(`${mode}: progress and log lines sent before the answer reach the agent before its result`, async () => {
      const a = await agent(kind);
      try {
        const wrong: unknown[] = [];
        let next = 0;
        let after = 0;
        const n = mode === 'one' ? 200 : 40;
        const worker = async () => {
          while (next < n) {
            const i = next++;
            const tag = `${kind}-${mode}-${i}`;
            const r = await a.call(`${mode}__echo`, tag);
            if (r.lines.includes(`${tag}#after`)) after++;
            const lines =
              kind === 'v2-modern' ? ['-'] : r.lines.filter((l) => !l.endsWith('#after'));
            const want = kind === 'v2-modern' ? ['-'] : [`${tag}#1`, `${tag}#2`];
            if (
              JSON.stringify(r.progress) !== '[1,2]' ||
              JSON.stringify(lines) !== JSON.stringify(want) ||
              r.text.indexOf(`echo ${tag}`) < 0
            )
              wrong.push({ i, ...r });
          }
        };
        await Promise.all(Array.from({ length: 8 }, worker));
        if (process.env.REVIEW_AFTER)
          console.log(`AFTER ${kind} ${mode}: ${after}/${n} trailing lines before the result`);
        expect(wrong.slice(0, 3)).toEqual([]);
      } finally {
        await a.close();
      }
    }, 300_000);
});
