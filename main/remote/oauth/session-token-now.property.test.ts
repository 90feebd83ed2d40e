import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryVault } from '../../platform/vault/vault.js';
import { OAuthSession } from './session.js';
import { OAuthStore, oauthKey, type OAuthRecord, type SavedTokens } from './store.js';

/**
 * Issue 34: lean-send.ts takes OAuthSession.tokenNow() instead of awaiting token() when it can
 * tell. Whatever the record holds, tokenNow() is either null ("ask token()") or exactly what
 * token() gives at that moment — and then token() had nothing to do: no refresh, no request.
 */
const URL_A = 'https://mcp.example/mcp';
const NOW = 1_800_000_000_000;

interface Case {
  loaded: boolean;
  record: OAuthRecord | null;
}

async function judge(c: Case) {
  const vault = new MemoryVault();
  if (c.record) await vault.set(oauthKey('svc'), JSON.stringify(c.record));
  const store = new OAuthStore(vault, 'svc');
  let requests = 0;
  const session = new OAuthSession({
    store,
    serverUrl: URL_A,
    now: () => NOW,
    // Any request (a refresh, discovery) counts: tokenNow() promised there would be none.
    fetch: () => {
      requests++;
      return Promise.reject(new Error('no network here'));
    },
  });
  if (c.loaded) await store.load();
  const now = session.tokenNow();
  if (now === null) return { now };
  const given = await session.token().catch((e: Error) => `threw ${e.message}`);
  return { now, given, requests };
}

function expectAgrees(r: Awaited<ReturnType<typeof judge>>) {
  if (r.now === null) return;
  expect(r.given).toBe(r.now);
  expect(r.requests).toBe(0);
}

const tokens: fc.Arbitrary<SavedTokens> = fc.record(
  {
    access_token: fc.string({ maxLength: 4 }),
    token_type: fc.constant('Bearer'),
    refresh_token: fc.string({ minLength: 1, maxLength: 4 }),
    obtained_at: fc.integer({ min: NOW - 7_200_000, max: NOW + 10_000 }),
    expires_at: fc.integer({ min: NOW - 120_000, max: NOW + 7_200_000 }),
  },
  { requiredKeys: ['access_token', 'token_type', 'obtained_at'] },
);
const record: fc.Arbitrary<OAuthRecord | null> = fc.option(
  fc.record(
    {
      v: fc.constant(1 as const),
      serverUrl: fc.constantFrom(URL_A, URL_A + '/', 'https://other.example/mcp'),
      tokens,
    },
    { requiredKeys: ['v', 'serverUrl'] },
  ) as fc.Arbitrary<OAuthRecord>,
  { nil: null },
);

describe('OAuthSession.tokenNow ≡ token() whenever it answers', () => {
  it('over generated records, loaded or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), record, async (loaded, rec) =>
        expectAgrees(await judge({ loaded, record: rec })),
      ),
      { numRuns: 300 },
    );
  });

  it('over a hand-written list of edges', async () => {
    const t = (x: Partial<SavedTokens>): OAuthRecord => ({
      v: 1,
      serverUrl: URL_A,
      tokens: { access_token: 'tok', token_type: 'Bearer', obtained_at: NOW - 1000, ...x },
    });
    const cases: Case[] = [
      { loaded: false, record: t({}) },
      { loaded: true, record: null },
      { loaded: true, record: { v: 1, serverUrl: URL_A } },
      { loaded: true, record: t({}) }, // no expiry: never renewed
      { loaded: true, record: t({ access_token: '' }) },
      { loaded: true, record: t({ expires_at: NOW }) }, // expires this instant
      { loaded: true, record: t({ expires_at: NOW - 1, refresh_token: 'r' }) },
      { loaded: true, record: t({ expires_at: NOW + 60_000, obtained_at: NOW - 3_600_000 }) },
      { loaded: true, record: t({ expires_at: NOW + 60_001, obtained_at: NOW - 3_600_000 }) },
      { loaded: true, record: t({ expires_at: NOW + 10, obtained_at: NOW + 10 }) }, // lifetime 0
      { loaded: true, record: t({ expires_at: NOW + 5, obtained_at: NOW + 100 }) }, // from the future
      { loaded: true, record: { ...t({}), serverUrl: 'https://mcp.example/MCP' } },
    ];
    for (const c of cases) expectAgrees(await judge(c));
    // The everyday case answers at once: signed in with a fresh token, and never signed in.
    expect((await judge({ loaded: true, record: t({ expires_at: NOW + 3_600_000 }) })).now).toBe(
      'tok',
    );
    expect((await judge({ loaded: true, record: null })).now).toBeUndefined();
  });
});
