import { describe, expect, it } from 'vitest';
import { OAuthSession } from './session.js';
import type { OAuthStore } from './store.js';

/**
 * secrets() gives the token values without the filtered pair it made on every call (issue 34,
 * wave 3 session 32). Every combination of the two values (absent, empty, two distinct ones, the
 * same one twice) and the record without tokens or without a record at all, against the replaced
 * expression word for word: the same values in the same order.
 */
function reference(tokens: { access_token?: string; refresh_token?: string } | undefined) {
  return [tokens?.access_token, tokens?.refresh_token].filter((v): v is string => !!v);
}

const VALUES = [undefined, '', 'at-1', 'rt-2'];
const records: ({ tokens?: { access_token?: string; refresh_token?: string } } | undefined)[] = [
  undefined,
  {},
];
for (const access_token of VALUES)
  for (const refresh_token of VALUES) records.push({ tokens: { access_token, refresh_token } });

describe('OAuthSession.secrets', () => {
  it('gives what the filtered pair gave, for every combination', () => {
    for (const record of records) {
      const store = { peek: () => record } as unknown as OAuthStore;
      const session = new OAuthSession({ store, serverUrl: 'https://mcp.example.test/mcp' });
      expect([...session.secrets()]).toStrictEqual(reference(record?.tokens));
    }
  });
});
