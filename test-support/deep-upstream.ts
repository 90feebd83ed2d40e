import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A hostile upstream whose messages nest 10,000 deep (the outside tester's F1/F2/F4): JSON.parse
 * reads that, JSON.stringify overflows the stack on it. One table of what each tool's call gets,
 * spoken over HTTP (`deepHttp`, a 2025-era server, JSON or one SSE stream) and over stdio
 * (`DEEP_STDIO_SERVER`, a script for `node -e`). Every tool is read-only (auto-approved by the
 * default policy); a test sets one to ask.
 *
 * - good: a plain answer ("fine").
 * - meta, content_meta, link_meta, structured: the answer, with the deep value in its `_meta`,
 *   its text block's `_meta`, a resource_link's `_meta`, or its `structuredContent`.
 * - notify: a `notifications/message` whose data is deep, then the plain answer.
 * - elicit: an `elicitation/create` request whose schema is deep, then the plain answer.
 */
export const DEEP_TOOLS = [
  'good',
  'meta',
  'content_meta',
  'link_meta',
  'structured',
  'notify',
  'elicit',
] as const;
export type DeepTool = (typeof DEEP_TOOLS)[number];

/**
 * The lines a tools/call of `tool` gets, in order (the answer last). Plain JavaScript inside (no
 * helpers from outside it): the stdio script carries its source (`toString`).
 */
export function deepMessages(tool: string, id: unknown, level: number): string[] {
  const deep = '['.repeat(level) + '1' + ']'.repeat(level);
  const ans = (result: string) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
  const fine = ans('{"content":[{"type":"text","text":"fine"}]}');
  switch (tool) {
    case 'meta':
      return [ans(`{"content":[{"type":"text","text":"x"}],"_meta":{"a":${deep}}}`)];
    case 'content_meta':
      return [ans(`{"content":[{"type":"text","text":"x","_meta":{"a":${deep}}}]}`)];
    case 'link_meta':
      return [
        ans(
          `{"content":[{"type":"resource_link","uri":"mem://x","name":"x","_meta":{"a":${deep}}}]}`,
        ),
      ];
    case 'structured':
      return [ans(`{"content":[{"type":"text","text":"x"}],"structuredContent":{"a":${deep}}}`)];
    case 'notify':
      return [
        `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":${deep}}}`,
        fine,
      ];
    case 'elicit':
      return [
        `{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"a":${deep}}}}}`,
        fine,
      ];
    default:
      return [fine];
  }
}

export const DEEP_LEVEL = 10_000;

const TOOL_LIST = JSON.stringify(
  DEEP_TOOLS.map((name) => ({
    name,
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
  })),
);

/** The HTTP upstream's request listener (stateful: one session id). */
export function deepHttp(o: {
  sse: boolean;
  level?: number;
}): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const m = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
      if (m.id === undefined || !m.method) return void res.writeHead(202).end();
      let lines: string[];
      if (m.method === 'tools/call')
        lines = deepMessages(m.params?.name ?? '', m.id, o.level ?? DEEP_LEVEL);
      else {
        const result =
          m.method === 'initialize'
            ? {
                protocolVersion: '2025-06-18',
                capabilities: { tools: {} },
                serverInfo: { name: 'deep', version: '1' },
              }
            : m.method === 'tools/list'
              ? { tools: JSON.parse(TOOL_LIST) as unknown }
              : {};
        lines = [JSON.stringify({ jsonrpc: '2.0', id: m.id, result })];
      }
      const sse = o.sse || lines.length > 1;
      res.writeHead(200, {
        'content-type': sse ? 'text/event-stream' : 'application/json',
        'mcp-session-id': 's1',
      });
      res.end(sse ? lines.map((d) => `event: message\ndata: ${d}\n\n`).join('') : lines[0]);
    });
  };
}

/** The same server over stdio: one JSON-RPC message a line. */
export const DEEP_STDIO_SERVER = `
const messagesFor = ${deepMessages.toString()};
const tools = ${TOOL_LIST};
const out = (s) => process.stdout.write(s + '\\n');
let rest = '';
process.stdin.on('data', (d) => {
  const lines = (rest + d).split('\\n');
  rest = lines.pop();
  for (const line of lines) {
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    if (m.id === undefined || !m.method) continue;
    if (m.method === 'initialize')
      out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'deep', version: '1' } } }));
    else if (m.method === 'tools/list') out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { tools } }));
    else if (m.method === 'tools/call') for (const l of messagesFor(m.params.name, m.id, ${DEEP_LEVEL})) out(l);
    else out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }));
  }
});
`;
