import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StaticGoogleAccess } from '../../e2e/fake-google/gmail-access.js';
import { toolFingerprint } from '../approvals/policy.js';
import { ToolRegistry } from '../tools/registry.js';
import type { GoogleAccountInfo } from './account-access.js';
import { CalendarApi } from './calendar/api.js';
import { CalendarSource } from './calendar/calendar-source.js';
import { pickAccount } from './gmail/account-pick.js';
import { GmailSource } from './gmail/source.js';

/**
 * "Always allow" is accepted only while its tool's fingerprint is the one its card was made against
 * (main/approvals/engine.ts, policy.ts toolFingerprint; allow once is bound per call,
 * pending-reach.property.test.ts): a call without `account` runs in the
 * first account that may write *at the decision*. The check must follow what the action picks —
 * an equal fingerprint means the same account — and nothing else: a token refreshed, an account
 * needing reconnection (both leave the account a call picks as it was) must not make every
 * pending Gmail or Calendar approval impossible to allow.
 */

const EMAILS = ['work@example.com', 'home@example.com', 'club@example.org'];
const G = 'https://www.googleapis.com/auth/';

const accountInfo = fc.record({
  email: fc.constantFrom(...EMAILS),
  readOnly: fc.boolean(),
  state: fc.constantFrom<GoogleAccountInfo['state']>('connected', 'needs_reconnect'),
  token: fc.constantFrom('t1', 't2'),
});
const accountList = fc
  .uniqueArray(accountInfo, { selector: (a) => a.email, maxLength: 3 })
  .map((list) =>
    list.map((a) => ({
      ...a,
      scopes: a.readOnly
        ? [`${G}gmail.readonly`, `${G}calendar.readonly`]
        : [`${G}gmail.modify`, `${G}gmail.compose`, `${G}calendar`],
    })),
  );

function world(list: (GoogleAccountInfo & { token: string })[]) {
  const access = new StaticGoogleAccess('http://127.0.0.1:1/', list);
  const registry = new ToolRegistry();
  registry.add(new GmailSource(access));
  registry.add(new CalendarSource(access));
  const fp = (key: string) => {
    const e = registry.getByKey(key);
    return e ? toolFingerprint(e) : null;
  };
  const gmailDefault = () => {
    try {
      return pickAccount(access, 'gmail_send', {}).email;
    } catch {
      return null;
    }
  };
  const calendarDefault = () => {
    try {
      return new CalendarApi(access, () => 0).account(undefined, true);
    } catch {
      return null;
    }
  };
  return { access, fp, gmailDefault, calendarDefault };
}

const GMAIL = 'gmail/gmail_send';
const CALENDAR = 'google-calendar/calendar_create_event';

describe('toolFingerprint follows the account a Google call picks', () => {
  it('an equal fingerprint means the same default account (Gmail and Calendar)', () => {
    fc.assert(
      fc.property(accountList, accountList, (a, b) => {
        const w = world(a);
        const before = {
          gmail: w.fp(GMAIL),
          calendar: w.fp(CALENDAR),
          gmailDefault: w.gmailDefault(),
          calendarDefault: w.calendarDefault(),
        };
        w.access.setAccounts(b);
        if (before.gmail !== null && w.fp(GMAIL) === before.gmail)
          expect(w.gmailDefault()).toBe(before.gmailDefault);
        if (before.calendar !== null && w.fp(CALENDAR) === before.calendar)
          expect(w.calendarDefault()).toBe(before.calendarDefault);
      }),
      { numRuns: 500 },
    );
  });

  it('a refreshed token or an account needing reconnection leaves it as it was', () => {
    fc.assert(
      fc.property(accountList, (list) => {
        const w = world(list);
        const before = [w.fp(GMAIL), w.fp(CALENDAR)];
        w.access.setAccounts(
          list.map((a) => ({
            ...a,
            token: `${a.token}-refreshed`,
            state: a.state === 'connected' ? ('needs_reconnect' as const) : ('connected' as const),
          })),
        );
        expect([w.fp(GMAIL), w.fp(CALENDAR)]).toEqual(before);
      }),
    );
  });
});
