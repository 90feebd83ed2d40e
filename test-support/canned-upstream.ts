import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A request listener for a hand-written 2025-era MCP upstream that answers from a fixed table:
 * initialize, tools/list (one `echo` tool) and tools/call with `callResult`, as JSON or as a
 * one-event SSE stream. For node:http or node:https `createServer`, where a test needs an
 * upstream the SDK would not produce (hostile results, TLS). With `progress`, an SSE answer to a
 * call that asked for progress carries those notifications first, all in the same single write
 * as the result (a reader then gets them in one chunk).
 */
export function cannedMcp(o: {
  name: string;
  callResult: unknown;
  /** Instead of `callResult`: the result for the call's arguments. */
  callResultFor?: (args: Record<string, unknown>) => unknown;
  sse: boolean;
  progress?: number[];
  /** The echo tool's annotations (readOnlyHint: auto-approved by the default policy). */
  annotations?: Record<string, unknown>;
  /** The echo tool's output schema, as the server declares it (nothing here checks it). */
  outputSchema?: Record<string, unknown>;
  /**
   * No `Mcp-Session-Id`: agents then share Airlock's one connection, the client that listed the
   * tools, instead of each opening a session of its own.
   */
  stateless?: boolean;
  /**
   * Instead of `callResult`: the result as JSON text, sent as is — one JSON.stringify cannot
   * write (structured content nested thousands deep).
   */
  callResultJson?: string;
}): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const m = JSON.parse(body) as {
        id?: number;
        method: string;
        params?: {
          _meta?: { progressToken?: string | number };
          arguments?: Record<string, unknown>;
        };
      };
      if (m.id === undefined) return void res.writeHead(202).end();
      const results: Record<string, unknown> = {
        initialize: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: o.name, version: '1' },
        },
        'tools/list': {
          tools: [
            {
              name: 'echo',
              inputSchema: { type: 'object' },
              ...(o.annotations ? { annotations: o.annotations } : {}),
              ...(o.outputSchema ? { outputSchema: o.outputSchema } : {}),
            },
          ],
        },
        'tools/call': o.callResultFor ? o.callResultFor(m.params?.arguments ?? {}) : o.callResult,
      };
      const answer =
        m.method === 'tools/call' && o.callResultJson !== undefined
          ? `{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":${o.callResultJson}}`
          : JSON.stringify({ jsonrpc: '2.0', id: m.id, result: results[m.method] ?? {} });
      const type = o.sse ? 'text/event-stream' : 'application/json';
      res.writeHead(200, {
        'content-type': type,
        ...(o.stateless ? {} : { 'mcp-session-id': 's1' }),
      });
      const token = m.method === 'tools/call' ? m.params?._meta?.progressToken : undefined;
      const events = (token === undefined ? [] : (o.progress ?? [])).map((progress) =>
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress },
        }),
      );
      const sse = [...events, answer].map((data) => `event: message\ndata: ${data}\n\n`).join('');
      res.end(o.sse ? sse : answer);
    });
  };
}
