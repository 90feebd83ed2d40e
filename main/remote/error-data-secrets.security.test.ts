import { ProtocolError } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { Logger } from '../platform/log.js';
import { RemoteSource } from './remote-source.js';

/**
 * Review of "a server's JSON-RPC error to a tool call keeps its data" (remote-calls.ts): the data
 * is written out as JSON text, and JSON escapes `"` and `\`. A header value holding either, echoed
 * by the server in its error's data, reached the agent as `ab\"cd…` — the secret, one unescape
 * away — since the redactor looked for the value as it stands inside the result's JSON, not as it
 * stands inside JSON inside a string of it. Header values may hold both (RFC 9110 §5.5: VCHAR).
 */
const cleanup = cleanupAfterEach();
const NEVER = 10 * 60_000;
const KEY = 'k3y"with\\quote-and-backslash';

describe("a secret in a server's error data to a call", () => {
  it('is redacted however JSON writes it', async () => {
    const up = new FakeUpstream({
      tools: [
        {
          name: 'echo',
          annotations: { readOnlyHint: true },
          run: async (_a, c) =>
            Promise.reject(new ProtocolError(-32602, 'bad key', { key: c.headers['x-key'] })),
        },
      ],
    });
    await up.start();
    cleanup.push(() => up.stop());
    const s = new RemoteSource(
      { name: 'svc', url: up.url, headers: { 'x-key': KEY } },
      {
        logger: new Logger({ stderr: false }),
        version: 'test',
        timings: { connectMs: NEVER, listMs: NEVER, readyMs: NEVER, callIdleMs: NEVER },
      },
    );
    cleanup.push(() => s.stop());
    s.start();
    await s.ready();
    const r = await s.call('echo', {}, { agent: 'a', signal: new AbortController().signal });
    const texts = (r.content ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : []));
    expect(r.isError).toBe(true);
    // The data did reach the agent, with the key in it redacted.
    expect(texts).toContain('Error data: {"key":"[redacted]"}');
    const shown = JSON.stringify(r);
    for (const form of [KEY, JSON.stringify(KEY).slice(1, -1)])
      expect(texts.join('\n').includes(form), `the agent reads the key: ${shown}`).toBe(false);
  });
});
