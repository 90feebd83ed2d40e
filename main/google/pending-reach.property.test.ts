import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StaticGoogleAccess } from '../../e2e/fake-google/gmail-access.js';
import { runFingerprint } from '../approvals/policy.js';
import { ToolRegistry } from '../tools/registry.js';
import type { ToolSource } from '../tools/types.js';
import { GoogleToolError, type GoogleAccountInfo } from './account-access.js';
import { CalendarSource } from './calendar/calendar-source.js';
import { GmailSource } from './gmail/source.js';
import { encodeAccountPages } from './spanning.js';

/**
 * A pending Gmail or Calendar approval's allow once is bound to the account(s) the call goes out
 * from (ToolSource.identityFor, approvals/policy.ts runFingerprint). The binding must be the
 * account the call then reaches — checked here against the thing that acts: call() itself, whose
 * every request asks the accounts layer for that account's token — and must not move when an
 * unrelated account is connected (which changes every tool's `account` enum).
 */

const EMAILS = ['work@example.com', 'home@example.com', 'club@example.org'];
const G = 'https://www.googleapis.com/auth/';

type Acct = GoogleAccountInfo & { token: string };

const accountInfo = fc.record({
  email: fc.constantFrom(...EMAILS),
  readOnly: fc.boolean(),
  state: fc.constantFrom<GoogleAccountInfo['state']>('connected', 'needs_reconnect'),
  token: fc.constant('t'),
});
const withScopes = (a: Omit<Acct, 'scopes'>): Acct => ({
  ...a,
  scopes: a.readOnly
    ? [`${G}gmail.readonly`, `${G}calendar.readonly`]
    : [`${G}gmail.modify`, `${G}gmail.compose`, `${G}calendar`],
});
const roster = fc
  .uniqueArray(accountInfo, { selector: (a) => a.email, minLength: 1, maxLength: 3 })
  .map((l) => l.map(withScopes));

/** `account` as an agent may give it: left out, an address in any case, unknown, "all", a list, junk. */
const accountArg = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 4 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...EMAILS), fc.boolean())
      .map(([e, upper]) => (upper ? e.toUpperCase() : e)),
    weight: 4,
  },
  { arbitrary: fc.constant('nobody@example.net'), weight: 1 },
  { arbitrary: fc.constant('all'), weight: 1 },
  {
    arbitrary: fc.uniqueArray(fc.constantFrom(...EMAILS), { minLength: 1, maxLength: 3 }),
    weight: 2,
  },
  { arbitrary: fc.constant(7), weight: 1 },
);

/** Valid arguments for each tool, so a call that resolves its account goes on to a request. */
const CALLS: Record<string, Record<string, unknown>> = {
  gmail_send: { to: ['bob@example.com'], subject: 'Hi', body: 'x' },
  gmail_search: { query: 'from:bob' },
  gmail_read: { message_id: 'm1' },
  gmail_trash: { message_ids: ['m1'] },
  calendar_create_event: {
    summary: 'Sync',
    start: '2026-03-01T10:00:00Z',
    end: '2026-03-01T10:15:00Z',
  },
  calendar_list_events: {},
  calendar_get_event: { event_id: 'e1' },
  calendar_delete_event: { event_id: 'e1' },
};
/** A continuation of a read across accounts: its token names each account's own page. */
const pageToken = fc.option(
  fc
    .uniqueArray(fc.constantFrom(...EMAILS), { minLength: 1, maxLength: 3 })
    .map((l) => encodeAccountPages(Object.fromEntries(l.map((e) => [e, 'p1'])))),
  { nil: undefined },
);
const PAGED = new Set(['gmail_search', 'calendar_list_events']);
const call = fc.record({
  tool: fc.constantFrom(...Object.keys(CALLS)),
  account: accountArg,
  page_token: pageToken,
});
const argsOf = (c: { tool: string; account: unknown; page_token?: string | undefined }) => ({
  ...CALLS[c.tool],
  ...(c.account === undefined ? {} : { account: c.account }),
  ...(c.page_token === undefined || !PAGED.has(c.tool) ? {} : { page_token: c.page_token }),
});

/** The accounts layer, recording whose token each request asks for and refusing it: nothing leaves. */
class RecordingAccess extends StaticGoogleAccess {
  asked: string[] = [];
  override async accessToken(email: string): Promise<string> {
    this.asked.push(email);
    throw new GoogleToolError('OAUTH_REVOKED', `${email} needs to be reconnected in Airlock.`);
  }
}

const sourceFor = (tool: string, access: StaticGoogleAccess): ToolSource =>
  tool.startsWith('gmail_') ? new GmailSource(access) : new CalendarSource(access);

describe('a pending Google approval is bound to the account the call goes out from', () => {
  it('identityFor names exactly the accounts call() then reaches (none when it cannot resolve one)', async () => {
    await fc.assert(
      fc.asyncProperty(roster, call, async (list, c) => {
        const access = new RecordingAccess('http://127.0.0.1:1/', list);
        const source = sourceFor(c.tool, access);
        const args = argsOf(c);
        const bound = JSON.parse(source.identityFor!(c.tool, args)) as unknown;
        await source.call(c.tool, args, { agent: 'a', signal: new AbortController().signal });
        const reached = [...new Set(access.asked)].sort();
        if (Array.isArray(bound))
          expect(reached).toEqual((bound as [string, boolean][]).map(([e]) => e).sort());
        else expect(reached).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('an account connected after the others leaves the binding of a call that resolved as it was', () => {
    fc.assert(
      fc.property(roster, call, accountInfo, (list, c, added) => {
        fc.pre(!list.some((a) => a.email === added.email));
        fc.pre(c.account !== 'all'); // "all" reaches the new account too
        const access = new StaticGoogleAccess('http://127.0.0.1:1/', list);
        const registry = new ToolRegistry();
        const source = sourceFor(c.tool, access);
        registry.add(source);
        const key = `${source.id}/${c.tool}`;
        const args = argsOf(c);
        const before = registry.getByKey(key);
        fc.pre(before !== undefined && !source.identityFor!(c.tool, args).includes('unreached'));
        const shown = runFingerprint(before!, args);
        access.setAccounts([...list, withScopes(added)]);
        expect(runFingerprint(registry.getByKey(key)!, args)).toBe(shown);
      }),
      { numRuns: 500 },
    );
  });
});
