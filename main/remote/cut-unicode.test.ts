import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/server';
import { expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { startRemoteApp } from '../../test-support/remote-app.js';
import { CUT_META_KEY } from '../tools/result-shaping.js';

/** No lone surrogate (String#isWellFormed, ES2024, outside this build's lib): `u` pairs them. */
const wellFormed = (s: string) => !/\p{Cs}/u.test(s);

/**
 * A result over the cap (settings.limits.resultChars, 20,000 by default) is cut, and says so
 * (docs/remote.md, "Untrusted-content marking"). The cut fell between the two halves of a
 * surrogate pair: one odd character before a run of 𝄞 (U+1D11E, two UTF-16 units) left a lone
 * high surrogate at the end, which is no Unicode text — a 1.x SDK agent read it as U+FFFD, a
 * strict decoder refuses the message. A read's mark was a sentence where a tool result's is
 * `{ characters, limit }`.
 */
const cleanup = cleanupAfterEach();
const ASTRAL = 'a' + '𝄞'.repeat(15_000);

it('a cut result keeps whole characters, tool call and resource read alike, with the same mark', async () => {
  const up = new FakeUpstream({
    name: 'svc',
    capabilities: { resources: {} },
    extend: (server: Server) => {
      server.setRequestHandler('resources/list', async () => ({
        resources: [{ uri: 'mem://long', name: 'long' }],
      }));
      server.setRequestHandler('resources/read', async (req) => ({
        contents: [{ uri: req.params.uri, mimeType: 'text/plain', text: ASTRAL }],
      }));
    },
    tools: [
      {
        name: 'long',
        annotations: { readOnlyHint: true },
        run: async () => ({ content: [{ type: 'text', text: ASTRAL }] }),
      },
    ],
  });
  await up.start();
  cleanup.push(() => up.stop());
  const t = await startRemoteApp();
  cleanup.push(() => t.stop());
  await t.app.control.addRemote({ name: 'svc', url: up.url });
  const c = new Client({ name: 'sdk1-agent', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    }),
  );
  cleanup.push(() => c.close());
  const limit = t.app.settings.get().limits.resultChars;

  const read = await c.readResource({ uri: 'airlock://svc/mem://long' });
  const readText = (read.contents[0] as { text: string }).text;
  expect(wellFormed(readText)).toBe(true);
  expect(ASTRAL.startsWith(readText)).toBe(true);
  expect(read._meta?.[CUT_META_KEY]).toEqual({
    characters: ASTRAL.length - readText.length,
    limit,
  });

  const call = await c.callTool({ name: 'svc__long', arguments: {} });
  const texts = (call.content as { type: string; text: string }[]).map((b) => b.text);
  const kept = texts.find((x) => x.startsWith('a𝄞'))!;
  expect(wellFormed(kept)).toBe(true);
  expect(ASTRAL.startsWith(kept)).toBe(true);
  expect(call._meta?.[CUT_META_KEY]).toEqual({ characters: ASTRAL.length - kept.length, limit });
}, 60_000);
