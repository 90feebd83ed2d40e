import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALL_ROUTE_PATHS,
  APPROVE_PREFIX,
  PAGE_ROUTES,
  parseHash,
  SECRET_HASH_KEYS,
} from '../../common/routes.js';
import { CONFUSABLE_LOWER } from '../../common/confusables.js';
import { relayedLinkProblem } from './relay-label.js';

/**
 * docs/security.md R-4: a relayed link is refused when its fragment is one of the control page's
 * routes, judged by the router's own table (common/routes.ts, which renderer/src/shell/routes.tsx
 * draws its pages from). Generated from that table, so a page added to it is covered here without
 * an edit.
 */
const host = fc.constantFrom(
  'https://airlock.example.test/',
  'https://example.com/some/path',
  'http://10.0.0.1:8080/',
  'https://xn--airlck-f1a.example/',
);
/** How a person could be shown a route: case, trailing slash, encoded letters. */
const spelled = (path: string) =>
  fc
    .tuple(
      fc.array(fc.boolean(), { minLength: path.length, maxLength: path.length }),
      fc.constantFrom('', '/', '?id=abc', '?x=1&id=2'),
      fc.boolean(),
    )
    .map(([upper, tail, encode]) => {
      const cased = [...path].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
      const body = encode
        ? cased.replace(/[a-z]/i, (c) => `%${c.charCodeAt(0).toString(16)}`)
        : cased;
      return `${body}${tail}`;
    });
const route = fc
  .constantFrom(...ALL_ROUTE_PATHS)
  .chain((p) =>
    p === APPROVE_PREFIX
      ? fc.stringMatching(/^[A-Za-z0-9_-]{0,12}$/).chain((id) => spelled(`${p}${id}`))
      : spelled(p),
  );

describe("a relayed link to one of Airlock's routes (the router's table)", () => {
  it('the table is what the router reads: each route parses to itself', () => {
    for (const p of ALL_ROUTE_PATHS) expect(parseHash(`#${p}`).path).toBe(p);
    expect(PAGE_ROUTES.length).toBeGreaterThan(0);
  });

  it('every route of the table, however spelled, is refused on any host', () => {
    fc.assert(
      fc.property(host, route, fc.boolean(), (h, r, slashless) => {
        const hash = slashless ? r.replace(/^\//, '') : r;
        expect(relayedLinkProblem(`${h}#${hash}`).refusal, `${h}#${hash}`).toMatch(
          /Airlock's own pages/,
        );
      }),
    );
  });

  it("a fragment carrying the page's credentials (token=, code=) is refused wherever it sits", () => {
    fc.assert(
      fc.property(
        host,
        fc.constantFrom(...SECRET_HASH_KEYS),
        fc.constantFrom('', '/approvals?', '/x?a=1&', 'a=1&'),
        fc.stringMatching(/^[A-Za-z0-9_]{1,20}$/),
        (h, key, before, value) => {
          expect(relayedLinkProblem(`${h}#${before}${key}=${value}`).refusal).toBeDefined();
        },
      ),
    );
  });

  it("links whose fragment is no route of Airlock's are passed on", () => {
    const routes = ALL_ROUTE_PATHS.map((p) => p.replace(/\/$/, ''));
    fc.assert(
      fc.property(host, fc.stringMatching(/^\/?[a-z]{1,10}(\/[a-z0-9]{1,5})?$/), (h, frag) => {
        const path = `/${frag.replace(/^\//, '')}`;
        fc.pre(!routes.some((r) => path === r || path.startsWith(`${r}/`)));
        expect(relayedLinkProblem(`${h}#${frag}`)).toEqual({});
      }),
    );
    expect(relayedLinkProblem('https://example.com/#section-2')).toEqual({});
    expect(relayedLinkProblem('https://example.com/')).toEqual({});
  });

  it('a route drawn alike — look-alike, full-width or hidden letters, a tail, dot segments — is refused', () => {
    // Letters the confusables table reads as each Latin letter (i and l are one there).
    const alike = (c: string) => {
      const t = c === 'i' ? 'l' : c;
      const cs = [...CONFUSABLE_LOWER].filter(([k, v]) => v === t && /\p{L}/u.test(k));
      return fc.constantFrom(
        c,
        String.fromCodePoint(c.codePointAt(0)! + 0xfee0),
        ...cs.map(([k]) => k),
      );
    };
    const drawn = fc
      .constantFrom(...ALL_ROUTE_PATHS.filter((p) => p !== APPROVE_PREFIX))
      .chain((p) =>
        fc.tuple(
          fc.tuple(...[...p].map((c) => (/[a-z]/.test(c) ? alike(c) : fc.constant(c)))),
          fc.nat(p.length),
          fc.constantFrom('', '\u200b', '\u2060', '\u00ad', '%00', '%E2%80%8B'),
          fc.constantFrom('', '#x', '%00', '/', ';x'),
          fc.constantFrom('', '/.', '/x/..'),
        ),
      )
      .map(([letters, at, hidden, tail, dots]) => {
        const body = letters.join('');
        return `${dots}${body.slice(0, at)}${hidden}${body.slice(at)}${tail}`;
      });
    fc.assert(
      fc.property(host, drawn, (h, r) => {
        expect(relayedLinkProblem(`${h}#${r}`).refusal, `${h}#${r}`).toMatch(/Airlock's own pages/);
      }),
      { numRuns: 500 },
    );
  });
});
