import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { cannedMcp } from '../../test-support/canned-upstream.js';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { agentClient, startRemoteApp } from '../../test-support/remote-app.js';

/**
 * A tool result whose content the MCP schema refuses (an EmbeddedResource needs its `resource`:
 * TextResourceContents or BlobResourceContents, MCP 2025-11-25 schema) is refused with a clear
 * reason as a well-formed tool result with `isError`, on both eras downstream: not a JSON-RPC
 * error for the whole call with the schema library's dump, and never passed on half-checked.
 */
const cleanup = cleanupAfterEach();

async function hostile(block: unknown): Promise<string> {
  const server = createServer(
    cannedMcp({
      name: 'hostile',
      callResult: { content: [{ type: 'text', text: 'fine' }, block] },
      sse: false,
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

async function modernClient(url: string, token: string): Promise<Client> {
  const c = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  expect(c.getProtocolEra()).toBe('modern');
  return c;
}

describe('a tool result the MCP schema refuses', () => {
  it.each([
    ['an embedded resource without "resource"', { type: 'resource' }, /content\[1\].*"resource"/],
    [
      'an embedded resource whose contents have neither text nor blob',
      { type: 'resource', resource: { uri: 'mem://x' } },
      /content\[1\].*"text" or "blob"/,
    ],
    ['an image without data', { type: 'image', mimeType: 'image/png' }, /content\[1\].*"data"/],
    // Text blocks take a fast path (issue 34); one with annotations or _meta must not skip the check.
    [
      'a text block whose annotations the schema refuses',
      { type: 'text', text: 'x', annotations: { priority: 'high' } },
      /content\[1\].*"annotations" or "_meta"/,
    ],
    [
      'a text block whose _meta is not an object',
      { type: 'text', text: 'x', _meta: 'm' },
      /content\[1\].*"annotations" or "_meta"/,
    ],
    ['an unknown content type', { type: 'hologram' }, /content\[1\].*"hologram"/],
  ])('%s: a clear tool error on both eras', async (_what, block, says) => {
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'hostile', url: await hostile(block) });
    await t.app.control.setToolPolicy('hostile__echo', {
      approval: 'auto',
      confirmDestructive: true,
    });
    for (const c of [
      await agentClient(t.started.mcpUrl, t.token),
      await modernClient(t.started.mcpUrl, t.token),
    ]) {
      cleanup.push(() => c.close());
      const r = await c.callTool({ name: 'hostile__echo', arguments: {} });
      expect(r.isError).toBe(true);
      const text = (r.content as { type: string; text?: string }[]).map((b) => b.text).join('\n');
      expect(text).toMatch(/"hostile" answered with a malformed result/);
      expect(text).toMatch(says);
      expect(text).toMatch(/The call itself ran/);
    }
  });
});
