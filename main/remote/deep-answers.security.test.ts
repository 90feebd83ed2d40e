import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRequested, nextEvent } from '../../test-support/core-events.js';
import { DEEP_STDIO_SERVER, deepHttp } from '../../test-support/deep-upstream.js';
import {
  agentClient,
  startRemoteApp,
  toolsOffered,
  type RemoteTestApp,
} from '../../test-support/remote-app.js';

/**
 * A hostile server whose messages nest 10,000 deep (the outside tester's F1, F2, F4; the server
 * is test-support/deep-upstream.ts). Every message from a server is bounded where it is parsed
 * (upstream/json-values.ts `parseUpstream`, MAX_JSON_DEPTH): such an answer is a malformed answer,
 * its call fails at once with a tool error that says the call ran, and the server's other calls
 * and the process go on — over HTTP (JSON and SSE answers) and stdio, to agents of both eras,
 * auto-approved or allowed once. It used to end `airlock serve` (an approved call), leave the
 * agent's request open forever (an auto one), or call a call that ran "failed".
 */
const DEEP_SAYS =
  /the server sent a message nested deeper than 128 levels; Airlock did not parse it\. The call itself ran on the server; check before trying again\./;

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

const text = (r: { content?: unknown }) =>
  ((r.content as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

describe.each([
  ['HTTP, JSON answers', 'json'],
  ['HTTP, SSE answers', 'sse'],
  ['stdio', 'stdio'],
] as const)('a server whose messages nest 10,000 deep (%s)', (_how, kind) => {
  let t: RemoteTestApp;
  let agents: [string, Client][];
  let stopUpstream = async () => {};
  beforeAll(async () => {
    t = await startRemoteApp();
    if (kind === 'stdio') {
      await t.app.control.addRemote({
        name: 'deep',
        stdio: {
          command: process.execPath,
          args: ['-e', DEEP_STDIO_SERVER],
          sandbox: { allowUnsandboxed: true },
        },
      });
    } else {
      const server = createServer(deepHttp({ sse: kind === 'sse' }));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      stopUpstream = async () => {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      };
      const port = (server.address() as AddressInfo).port;
      await t.app.control.addRemote({ name: 'deep', url: `http://127.0.0.1:${port}/mcp` });
    }
    await toolsOffered(t.app, ['deep__good', 'deep__meta', 'deep__elicit']);
    agents = [
      ['2025 session', await agentClient(t.started.mcpUrl, t.token)],
      ['2026-07-28', await modernClient(t.started.mcpUrl, t.token)],
    ];
  });
  afterAll(async () => {
    for (const [, a] of agents ?? []) await a.close();
    await t?.stop();
    await stopUpstream();
  });

  async function goesOn(agent: Client) {
    const ok = await agent.callTool({ name: 'deep__good', arguments: {} });
    expect(ok.isError).toBeFalsy();
    expect(text(ok)).toMatch(/\nfine$/);
  }

  it.each(['meta', 'content_meta', 'link_meta', 'structured'])(
    'deep %s, auto-approved: both eras get the malformed-answer tool error; the server goes on',
    async (tool) => {
      for (const [era, agent] of agents) {
        const r = await agent.callTool({ name: `deep__${tool}`, arguments: {} });
        expect(r.isError, era).toBe(true);
        expect(text(r), era).toMatch(/^The remote server "deep" /);
        expect(text(r), era).toMatch(DEEP_SAYS);
        await goesOn(agent);
      }
      const rows = await t.app.control.listActivity({ tool: `deep__${tool}` });
      expect(rows.map((a) => a.outcome)).toEqual(['error', 'error']);
      expect(rows[0]?.detail).toMatch(DEEP_SAYS);
    },
  );

  it.each(['meta', 'structured'])(
    'deep %s, allowed once: the request ends failed saying the call ran; Airlock serves on',
    async (tool) => {
      await t.app.control.setToolPolicy(`deep__${tool}`, { approval: 'ask' });
      for (const [era, agent] of agents) {
        const requested = nextEvent(t.app, isRequested);
        // Arguments of its own: the same call again would get the first one's stored outcome.
        const call = agent.callTool({ name: `deep__${tool}`, arguments: { era } });
        const { approval } = await requested;
        await t.app.control.decide(approval.id, { kind: 'allow_once' });
        const r = await call;
        expect(r.isError, era).toBe(true);
        expect(text(r), era).toMatch(DEEP_SAYS);
        const row = await t.app.control.getApproval(approval.id);
        expect(row.state, era).toBe('failed');
        const rows = await t.app.control.listActivity({ tool: `deep__${tool}` });
        const activity = rows.find((a) => a.approvalId === approval.id);
        expect(activity?.outcome, era).toBe('error');
        expect(activity?.detail, era).toMatch(DEEP_SAYS);
        await goesOn(agent);
      }
    },
  );

  it.each(['notify', 'elicit'])(
    'a deep %s from the server during a call: the call ends, the server goes on',
    async (tool) => {
      for (const [era, agent] of agents) {
        const r = await agent.callTool({ name: `deep__${tool}`, arguments: {} });
        if (kind === 'stdio') {
          // A line that answers nothing is skipped, as a line that is not JSON-RPC is
          // (line-reader.ts); the call's own answer comes after it.
          expect(text(r), era).toMatch(/\nfine$/);
        } else {
          // On the call's own event stream: the stream is cut, as one over the size bound is.
          expect(r.isError, era).toBe(true);
          expect(text(r), era).toMatch(DEEP_SAYS);
        }
        await goesOn(agent);
      }
    },
  );
});
