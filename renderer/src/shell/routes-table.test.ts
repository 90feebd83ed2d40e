import { describe, expect, it } from 'vitest';
import { PAGE_ROUTES, SECRET_HASH_KEYS } from '../../../common/routes';
import { takeFromAddress } from '../lib/transport';

/**
 * The page and the relayed-link check read one table (common/routes.ts, docs/security.md R-4). The
 * routed pages are keyed by its paths at compile time (routes.tsx); here, that every fragment key
 * the table names as a credential is one the page takes (and strips) from its address — the
 * relayed-link check refuses exactly those (relay-label.ts).
 */
function fakes(hash: string) {
  const replaced: string[] = [];
  const hist = {
    replaceState: (_s: unknown, _t: string, url: string) => void replaced.push(url),
  } as unknown as History;
  return { loc: { hash, pathname: '/', search: '' } as Location, hist, replaced };
}

describe('common/routes.ts is the page’s table', () => {
  it('every credential key of the table is taken from the address and stripped', () => {
    for (const key of SECRET_HASH_KEYS)
      for (const path of ['', ...PAGE_ROUTES.map((p) => `${p.path}?`)]) {
        const f = fakes(`#${path}${key}=v4lue`);
        const got = takeFromAddress(f.loc, f.hist);
        expect(got[key as 'code' | 'token']).toBe('v4lue');
        expect(f.replaced.join('')).not.toContain('v4lue');
      }
  });
});
