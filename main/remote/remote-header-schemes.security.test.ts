import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { agentClient, startRemoteApp } from '../../test-support/remote-app.js';
import { credentialHeader } from '../../test-support/secret-arbitraries.js';

/**
 * A server's credential headers of any scheme (`Token …`, `Basic …`, Digest-like auth-params):
 * an upstream that echoes what it received — the header, the credential after the scheme, and
 * for Basic what it decodes to — hands the agent none of it, and none reaches the log. Checked
 * on the MCP result the agent gets and the log files written, through the real gateway; the
 * echoes are computed by the upstream from the bytes it received. Generated header values (the
 * printable ones an HTTP client sends), a tuning seed and a held-out seed, one server each.
 */
const cleanup = cleanupAfterEach();
const printable = (v: string) => /^[\x20-\x7e]+$/.test(v);
const headerValues = (seed: number) =>
  fc.sample(
    credentialHeader('tuning')
      .map((h) => h.value)
      .filter(printable),
    { seed, numRuns: 3 },
  );
// Generated auth-params are rarely printable: one written out, with a quote escaped in it.
const DIGEST = 'Digest username="bob", response="6629fae4\\"9393a053"';
const TUNING = [...headerValues(1), DIGEST];
const HELD_OUT = [...headerValues(4_421), DIGEST];
const NAMES = ['X-Auth', 'X-Api-Auth', 'X-Upstream-Auth', 'X-Digest'];

/** What a server may echo of one header value it received. */
function echoesOf(value: string): string[] {
  const m = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+[ \t]+(.+)$/.exec(value);
  const out = [value];
  if (m) out.push(m[1]!);
  if (m && /^basic /i.test(value)) {
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    out.push(decoded, decoded.slice(decoded.indexOf(':') + 1));
  }
  return out;
}

describe('credential headers of any scheme are not echoed to the agent or the log', () => {
  it.each([
    ['tuning', TUNING],
    ['held out', HELD_OUT],
  ])('%s values', async (_label, values) => {
    const up = new FakeUpstream({
      tools: [
        {
          name: 'echo',
          annotations: { readOnlyHint: true },
          run: async (_a, c) => {
            const got = NAMES.map((n) => c.headers[n.toLowerCase()] as string);
            const text = got.flatMap(echoesOf).join(' | ');
            return { content: [{ type: 'text', text }], structuredContent: { got } };
          },
        },
      ],
    });
    await up.start();
    cleanup.push(() => up.stop());
    const t = await startRemoteApp({ logLevel: 'debug' });
    cleanup.push(() => t.stop());
    const headers = Object.fromEntries(NAMES.map((n, i) => [n, values[i]!]));
    const added = await t.app.control.addRemote({ name: 'svc', url: up.url, headers });
    expect(added).toMatchObject({ state: 'ready' });

    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    const result = await c.callTool({ name: 'svc__echo', arguments: {} });
    const seen = JSON.stringify(result);
    // The headers were really sent, so the check is not vacuous.
    const received = up.requests.find((r) => r.headers['x-auth'] !== undefined)?.headers;
    expect(NAMES.map((n) => received?.[n.toLowerCase()])).toEqual(values);
    expect(seen).toContain('[redacted]');

    await t.stop();
    const logs = readdirSync(join(t.dataDir, 'logs'))
      .map((f) => readFileSync(join(t.dataDir, 'logs', f), 'utf8'))
      .join('\n');
    for (const echo of values.flatMap(echoesOf)) {
      const inJson = JSON.stringify(echo).slice(1, -1);
      // Each side's minimum: what reaches the agent 6 characters, the log 8.
      if (echo.length >= 6) expect(seen, `result holds ${echo}`).not.toContain(inJson);
      if (echo.length >= 8) expect(logs, `log holds ${echo}`).not.toContain(inJson);
    }
  });
});
