import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryState } from './entry-state.js';

/**
 * "Connected" is decided on the entry's URL; the client then connects where its own URL parser
 * (WHATWG, as in Node's fetch and the apps' HTTP stacks) says. Airlock listens on 127.0.0.1 only
 * (gateway/http-server.ts). An entry on [::1] or localhost (resolved to ::1 first on many
 * systems) sent the token elsewhere while Airlock showed it as connected.
 */
const MCP = 'http://127.0.0.1:43117/mcp';
const reach = { mcpUrl: MCP, live: true };
const state = (url: string) => entryState({ id: 'cursor' }, { url, headers: {} }, reach);

/** Where a client given `url` opens its connection and what it asks for. */
function clientTarget(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return `${u.protocol}//${u.hostname}:${port}${u.pathname}`;
}

describe('entryState: connected means the client reaches the socket Airlock listens on', () => {
  it('an entry on another loopback name or scheme is stale; WHATWG spellings of 127.0.0.1 are not', () => {
    expect(state('http://[::1]:43117/mcp').connected).toBe(false);
    expect(state('http://localhost:43117/mcp').stale).toBe(
      'its entry points at http://localhost:43117/mcp, but this Airlock answers on http://127.0.0.1:43117/mcp; run "airlock clients connect cursor"',
    );
    expect(state('https://127.0.0.1:43117/mcp').connected).toBe(false);
    expect(state('http://127.1:43117/mcp').connected).toBe(true);
    expect(state('HTTP://0x7f.0.0.1:43117/mcp').connected).toBe(true);
    expect(state(MCP).connected).toBe(true);
  });

  it('property: connected exactly when the client would connect to 127.0.0.1, the port and path', () => {
    const host = fc.constantFrom(
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0x7f.0.0.1',
      '127.0.0.1.',
      'localhost',
      'LOCALHOST',
      'localhost.',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '127.0.0.2',
    );
    const scheme = fc.constantFrom('http', 'HTTP', 'https');
    const port = fc.constantFrom(':43117', ':43118', ':043117', '');
    const path = fc.constantFrom('/mcp', '/mcp/', '/MCP', '/./mcp', '/mcp?x=1');
    fc.assert(
      fc.property(scheme, host, port, path, (sc, h, p, pa) => {
        const url = `${sc}://${h}${p}${pa}`;
        const reachesAirlock = clientTarget(url) === 'http://127.0.0.1:43117/mcp';
        expect(state(url).connected).toBe(reachesAirlock);
      }),
    );
  });

  it('Gemini CLI: the URL it connects to (httpUrl over url, no serverUrl) decides', () => {
    const gemini = (raw: Record<string, unknown>) =>
      entryState({ id: 'gemini' }, { headers: {}, ...raw }, reach);
    // Gemini connects to httpUrl when both are set: an Airlock url beside a foreign httpUrl is stale.
    expect(gemini({ url: MCP, httpUrl: 'http://127.0.0.1:9/mcp' })).toMatchObject({
      connected: false,
      entryUrl: 'http://127.0.0.1:9/mcp',
    });
    expect(gemini({ url: 'http://127.0.0.1:9/sse', httpUrl: MCP }).connected).toBe(true);
    expect(gemini({ url: MCP }).connected).toBe(true);
    // serverUrl is Windsurf's and Antigravity's key; Gemini CLI has no URL in such an entry.
    expect(gemini({ serverUrl: MCP })).toMatchObject({ connected: false });
    // Other apps are unchanged: Cursor reads url.
    expect(
      entryState({ id: 'cursor' }, { url: MCP, httpUrl: 'http://127.0.0.1:9/mcp' }, reach)
        .connected,
    ).toBe(true);
  });
});
