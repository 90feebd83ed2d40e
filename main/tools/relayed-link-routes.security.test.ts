import { describe, expect, it } from 'vitest';
import { relayedLinkProblem } from './relay-label.js';

/**
 * Red-team probe (R-4, docs/security.md): a server's URL-mode elicitation link "is refused … when
 * it looks like Airlock's approval link" (relay-label.ts; relay-label.security.test.ts refuses
 * `https://airlock.example.test/#/approve/abc`). The look is judged by a hand-written list of
 * routes (`approve|popup|settings|tools|servers|agents|activity`) while the page's routes live in
 * renderer/src/shell/routes.tsx: the Approvals page (`#/approvals`, the default route) and the
 * Accounts page (`#/accounts`, where Google sign-in starts) are not on the list, nor is the open
 * link of `airlock open` (`/#code=…`, common/open-code.ts). Decided from the router's own table,
 * every route of the page would count.
 */
const OTHER_HOST = 'https://airlock.example.test/';
// The page's routes as renderer/src/shell/routes.tsx declares them (PAGES, DEFAULT_PATH,
// POPUP_PATH, APPROVE_PREFIX); copied because main's type check does not compile the renderer's TSX.
const APPROVE_PREFIX = '/approve/';
const POPUP_PATH = '/popup';
const PAGE_PATHS = ['/approvals', '/activity', '/tools', '/agents', '/accounts', '/servers'];

describe("a relayed link shaped like one of Airlock's pages", () => {
  it('the control: the approve route is refused on another host', () => {
    expect(relayedLinkProblem(`${OTHER_HOST}#${APPROVE_PREFIX}abc`).refusal).toBeDefined();
    expect(relayedLinkProblem(`${OTHER_HOST}#${POPUP_PATH}?id=abc`).refusal).toBeDefined();
  });

  for (const path of PAGE_PATHS)
    it(`refuses #${path}`, () => {
      expect(relayedLinkProblem(`${OTHER_HOST}#${path}`).refusal).toBeDefined();
    });

  it('refuses the open link of `airlock open` (#code=…)', () => {
    expect(relayedLinkProblem(`${OTHER_HOST}#code=abc123`).refusal).toBeDefined();
  });
});
