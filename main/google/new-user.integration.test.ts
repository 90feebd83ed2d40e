import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvent, GoogleConnectOptions } from '../../common/contract/index.js';
import { bridgeGoogleApis, type BridgedRequest } from '../../e2e/fake-google/api-bridge.js';
import { FakeCalendarApi } from '../../e2e/fake-google/calendar-fake.js';
import {
  ALICE as GMAIL_ALICE,
  BOB as GMAIL_BOB,
  startSeededGmail,
  type SeededGmail,
} from '../../e2e/fake-google/gmail-seed.js';
import { FakeGoogle } from '../../e2e/fake-google/server.js';
import { App } from '../app/app.js';
import { Logger } from '../platform/log.js';
import { browse } from '../../test-support/google.js';
import { PATIENT_READS, tempDir, textOf } from '../../test-support/harness.js';
import { MemoryVault } from '../platform/vault/vault.js';
import { settledFlow } from '../../test-support/google-flow.js';

/**
 * Issue 18, items 2–4, the way a new user and an agent meet them: a real App,
 * the real accounts layer and consent flow against the fake Google, an SDK
 * MCP client, and every check on the user's side made through the control API.
 */

const ALICE = GMAIL_ALICE.email; // connected first: the default unless the user picks another
const BOB = GMAIL_BOB.email;
const REVOKED = {
  status: 400,
  body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
};

let google: FakeGoogle;
let gmail: SeededGmail;
let calendar: FakeCalendarApi;
let bridged: BridgedRequest[];
let app: App;
let client: Client;
let approvalsAsked = 0;

beforeAll(async () => {
  google = new FakeGoogle();
  await google.start();
  gmail = await startSeededGmail();
  calendar = new FakeCalendarApi({
    'ya29.cal-alice': { email: ALICE },
    'ya29.cal-bob': { email: BOB },
  });
  await calendar.start();
  calendar.addCalendar(ALICE, {
    id: ALICE,
    summary: 'A',
    timeZone: 'Europe/Berlin',
    primary: true,
  });
  calendar.addCalendar(BOB, { id: BOB, summary: 'B', timeZone: 'Europe/Berlin', primary: true });
  bridged = bridgeGoogleApis(google, {
    gmail: {
      root: gmail.fake.root,
      tokens: { [ALICE]: GMAIL_ALICE.token, [BOB]: GMAIL_BOB.token },
    },
    calendar: {
      root: calendar.rootUrl,
      tokens: { [ALICE]: 'ya29.cal-alice', [BOB]: 'ya29.cal-bob' },
    },
  });
  const dataDir = tempDir('airlock-google-new-user-');
  app = new App({
    dataDir,
    port: 0,
    vault: new MemoryVault(),
    skipLock: true,
    logger: new Logger({ dir: join(dataDir, 'logs'), stderr: false, level: 'debug' }),
    google: { env: google.env() },
    readBounds: PATIENT_READS,
  });
  const started = await app.start();
  app.events.subscribe((e: CoreEvent) => {
    if (e.type === 'approval.requested') approvalsAsked++;
  });
  const { token } = await app.control.addAgent('new-user');
  await app.control.setGoogleClient({ json: google.clientFile() });
  client = new Client(
    { name: 'new-user', version: '1.0.0' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
});

afterAll(async () => {
  await client?.close().catch(() => {});
  await app?.stop();
  await google?.stop();
  await gmail?.fake.stop();
  await calendar?.stop();
});

async function connectGoogle(options: GoogleConnectOptions = {}) {
  const start = await app.control.startGoogleConnect({ ...options, openBrowser: false });
  expect((await browse(start.authUrl)).status).toBe(200);
  return settledFlow(app.control, start.flowId);
}

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { result, text: textOf(result), isError: result.isError === true };
}

async function accountsOf(tool: string): Promise<string[] | null> {
  const t = (await client.listTools()).tools.find((x) => x.name === tool);
  // A read that spans accounts (issue 33 item 6) lists them in its list form.
  const account = (
    t?.inputSchema.properties as
      Record<string, { enum?: string[]; anyOf?: { items?: { enum?: string[] } }[] }> | undefined
  )?.account;
  return t ? (account?.enum ?? account?.anyOf?.[1]?.items?.enum ?? null) : null;
}

describe('Google tools as a new user meets them (issue 18)', () => {
  it('connects the first account', async () => {
    google.user = ALICE;
    expect(await connectGoogle()).toMatchObject({ state: 'connected' });
  });

  it('18.4: a send to an invalid address is refused before any approval is asked', async () => {
    const before = approvalsAsked;
    const r = await call('gmail_send', { to: ['not an address'], subject: 'Hi', body: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Invalid arguments for gmail_send: to: "not an address"/);
    expect(await app.control.listPending()).toEqual([]);
    expect(approvalsAsked).toBe(before);
    const [last] = await app.control.listActivity({ tool: 'gmail_send', limit: 1 });
    expect(last).toMatchObject({ decision: 'rejected' });
    expect(last!.approvalId).toBeUndefined();
    expect(gmail.fake.sent).toHaveLength(0);
  });

  it('18.4: updating one occurrence of a series without scope is refused before any approval', async () => {
    const series = calendar.seed(ALICE, 'primary', {
      summary: 'Standup',
      start: { dateTime: '2030-03-12T09:00:00+01:00', timeZone: 'Europe/Berlin' },
      end: { dateTime: '2030-03-12T09:15:00+01:00', timeZone: 'Europe/Berlin' },
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    const listed = await call('calendar_list_events', {
      time_min: '2030-03-19',
      time_max: '2030-03-19',
    });
    const occurrence = (listed.result.structuredContent as { events: { id: string }[] }).events[0]!
      .id;
    expect(occurrence.startsWith(`${series.id}_`)).toBe(true);
    const before = approvalsAsked;
    const r = await call('calendar_update_event', { event_id: occurrence, summary: 'Moved' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/one occurrence of a recurring series.*scope/);
    expect(await app.control.listPending()).toEqual([]);
    expect(approvalsAsked).toBe(before);
    expect(calendar.calls('PATCH', /\/events\//)).toHaveLength(0);
  });

  it('18.3: Calendar unticked at consent → the calendar tools stay listed and answer OAUTH_SCOPE', async () => {
    google.user = BOB;
    google.grantScopes = (asked) => asked.filter((s) => !s.includes('/auth/calendar'));
    const view = await connectGoogle();
    google.grantScopes = null;
    expect(view.account!.missingScopes.some((s) => s.includes('calendar'))).toBe(true);
    expect(await accountsOf('calendar_list_events')).toEqual([ALICE, BOB]);

    const from = calendar.calls('GET', /./).length;
    const r = await call('calendar_list_events', { account: BOB });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/reconnect .*allow Calendar.*\[OAUTH_SCOPE\]$/);
    expect(r.result.structuredContent).toMatchObject({ error: { code: 'OAUTH_SCOPE' } });
    expect(calendar.calls('GET', /./).length).toBe(from); // refused here, not sent to Google
    // Gmail, which Bob did allow, works.
    expect((await call('gmail_search', { query: 'x', account: BOB })).isError).toBe(false);
  });

  it('18.2: while the default needs reconnecting, calls without account answer OAUTH_REVOKED naming it', async () => {
    google.refreshFailure = REVOKED;
    google.grants.expireAll();
    app.google.accounts.expire(ALICE);
    app.google.accounts.expire(BOB);
    const from = bridged.length;

    const mail = await call('gmail_search', { query: 'receipt' });
    expect(mail.isError).toBe(true);
    expect(mail.text).toContain(ALICE);
    expect(mail.text).toMatch(/\[OAUTH_REVOKED\]$/);
    const cal = await call('calendar_list_events', {});
    expect(cal.isError).toBe(true);
    expect(cal.text).toContain(ALICE);
    expect(cal.result.structuredContent).toMatchObject({ error: { code: 'OAUTH_REVOKED' } });
    // Nothing went to Google as Bob, and Alice is still shown as the default.
    expect(bridged.slice(from).filter((r) => r.email === BOB)).toEqual([]);
    const accounts = await app.control.listGoogleAccounts();
    expect(accounts.map((a) => [a.email, a.state, a.isDefault])).toEqual([
      [ALICE, 'needs_reconnect', true],
      [BOB, 'connected', false],
    ]);
  });

  it('18.2: the user chooses another default through the control API; calls without account use it', async () => {
    google.refreshFailure = null;
    const views = await app.control.setDefaultGoogleAccount(BOB);
    expect(views.find((a) => a.isDefault)?.email).toBe(BOB);
    const mail = await call('gmail_search', { query: 'receipt' });
    expect(mail.isError).toBe(false);
    expect(bridged.at(-1)).toMatchObject({ email: BOB, api: 'gmail' });
    await expect(app.control.setDefaultGoogleAccount('nobody@example.com')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // Disconnecting the chosen default hands the role back to the first account left.
    await app.control.disconnectGoogle(BOB);
    expect((await app.control.listGoogleAccounts()).map((a) => [a.email, a.isDefault])).toEqual([
      [ALICE, true],
    ]);
  });
});
