// The cold-start and idle-RSS anchor of bench-passthrough.mjs (issue 34: "cold start ≤ a bare SDK
// server"): the stock @modelcontextprotocol/sdk 1.x McpServer with one tool over StreamableHTTP
// on node:http — what someone writing their own MCP server from the SDK's README starts. Prints
// one line when listening (loopback, a free port), as `airlock serve` prints its ready line.
// Not a bench by itself; bench-passthrough.mjs starts it interleaved with `airlock serve`.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

// One McpServer per session, as the SDK's stateful example does.
const sessions = new Map();
function newServer() {
  const server = new McpServer({ name: 'bare', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes the message', inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  );
  return server;
}

async function readJson(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : undefined;
}

const httpServer = http.createServer(async (req, res) => {
  try {
    const sid = req.headers['mcp-session-id'];
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (!transport && req.method === 'POST' && isInitializeRequest(body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await newServer().connect(transport);
    }
    if (!transport) {
      res.writeHead(400).end('no session');
      return;
    }
    await transport.handleRequest(req, res, body);
  } catch (err) {
    if (!res.headersSent) res.writeHead(500).end(String(err));
  }
});
httpServer.listen(0, '127.0.0.1', () => {
  const { port } = httpServer.address();
  process.stdout.write(
    JSON.stringify({ event: 'ready', url: `http://127.0.0.1:${port}/mcp` }) + '\n',
  );
});
process.once('SIGTERM', () => httpServer.close(() => process.exit(0)));
