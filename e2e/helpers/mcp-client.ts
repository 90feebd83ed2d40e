import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export interface Agent {
  client: Client;
  /** Everything the server sent this client so far (bodies, as text). */
  received: () => string;
  close: () => Promise<void>;
}

/**
 * A real MCP client (SDK v2, streamable HTTP, 2025-era sessions like most
 * agents in use) with the agent token, recording every response body so a
 * test can check what the agent saw.
 */
export async function connectAgent(
  mcpUrl: string,
  token: string,
  name = 'e2e-agent',
): Promise<Agent> {
  const chunks: string[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (res.body) {
      const [mine, theirs] = res.body.tee();
      void (async () => {
        const reader = mine.pipeThrough(new TextDecoderStream()).getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            chunks.push(value);
          }
        } catch {
          // Stream cut (server killed, client closed): keep what arrived.
        }
      })();
      return new Response(theirs, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    }
    return res;
  };
  const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: recordingFetch,
  });
  await client.connect(transport);
  return {
    client,
    received: () => chunks.join(''),
    close: () => client.close().catch(() => {}),
  };
}

export interface ToolResult {
  isError?: boolean;
  content?: { type: string; text?: string }[];
}

export function textOf(result: ToolResult): string {
  return (result.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}

export async function callTool(
  agent: Agent,
  name: string,
  args: Record<string, unknown>,
  timeoutMs = 90_000,
): Promise<ToolResult> {
  return (await agent.client.callTool(
    { name, arguments: args },
    { timeout: timeoutMs },
  )) as ToolResult;
}
