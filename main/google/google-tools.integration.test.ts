import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GoogleConnectOptions } from '../../common/contract/index.js';
import { nextRequest } from '../../test-support/core-events.js';
import { pendingCalls } from '../../test-support/pending-calls.js';
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
import { filesContaining, PATIENT_READS, tempDir, textOf } from '../../test-support/harness.js';
import { MemoryVault } from '../platform/vault/vault.js';
import { settledFlow } from '../../test-support/google-flow.js';

/**
 * The pieces built separately, together: the real accounts layer (consent
 * flow, vault, refresh) drives the Gmail and Calendar sources inside a real
 * App, and an SDK MCP client uses them. Every API request carries a token the
 * fake OAuth server issued; the bridge (e2e/fake-google/api-bridge.ts) checks
 * it and its scopes before the Gmail/Calendar fakes see the request.
 */

const ALICE = GMAIL_ALICE.email; // alice@example.com: full access
const BOB = GMAIL_BOB.email; // bob@example.net: connected read-only
const CAL_ALICE = 'ya29.calendar-static-alice';
const CAL_BOB = 'ya29.calendar-static-bob';
const GOOGLE_TOOLS = [
  'gmail_search',
  'gmail_send',
  'calendar_list_events',
  'calendar_create_event',
];
const REVOKED = {
  status: 400,
  body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
};

let google: FakeGoogle;
let gmail: SeededGmail;
let calendar: FakeCalendarApi;
let bridged: BridgedRequest[];
let app: App;
let dataDir: string;
let client: Client;
/** Everything the agent was sent, to check no token reached it. */
const agentSaw: string[] = [];
let listChanges = 0;
const onListChanged: (() => void)[] = [];

beforeAll(async () => {
  google = new FakeGoogle();
  await google.start();
  gmail = await startSeededGmail();
  calendar = new FakeCalendarApi({ [CAL_ALICE]: { email: ALICE }, [CAL_BOB]: { email: BOB } });
  await calendar.start();
  calendar.addCalendar(ALICE, {
    id: ALICE,
    summary: 'Alice',
    timeZone: 'Europe/Berlin',
    primary: true,
  });
  calendar.addCalendar(BOB, {
    id: BOB,
    summary: 'Bob',
    timeZone: 'America/New_York',
    primary: true,
  });
  calendar.seed(ALICE, 'primary', {
    summary: 'Design review',
    start: { dateTime: '2030-03-12T10:00:00+01:00' },
    end: { dateTime: '2030-03-12T11:00:00+01:00' },
  });
  bridged = bridgeGoogleApis(google, {
    gmail: {
      root: gmail.fake.root,
      tokens: { [ALICE]: GMAIL_ALICE.token, [BOB]: GMAIL_BOB.token },
    },
    calendar: { root: calendar.rootUrl, tokens: { [ALICE]: CAL_ALICE, [BOB]: CAL_BOB } },
  });

  dataDir = tempDir('airlock-google-tools-');
  app = new App({
    dataDir,
    port: 0,
    vault: new MemoryVault(),
    skipLock: true,
    logger: new Logger({ dir: join(dataDir, 'logs'), stderr: false, level: 'debug' }),
    // Every Google endpoint, the API root included, points at the fake.
    google: { env: google.env() },
    readBounds: PATIENT_READS,
  });
  const started = await app.start();
  const { token } = await app.control.addAgent('test');
  await app.control.setGoogleClient({ json: google.clientFile() });
  client = await connectAgent(started.mcpUrl, token);
});

afterAll(async () => {
  await client?.close().catch(() => {});
  await app?.stop();
  await google?.stop();
  await gmail?.fake.stop();
  await calendar?.stop();
});

/** An SDK client in the 2025 era; resolves once its GET stream (where list_changed arrives) is open. */
async function connectAgent(mcpUrl: string, token: string): Promise<Client> {
  let streamOpen!: () => void;
  const opened = new Promise<void>((resolve) => (streamOpen = resolve));
  const c = new Client(
    { name: 'airlock-integration', version: '1.0.0' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      if ((init?.method ?? 'GET') === 'GET' && res.ok) streamOpen();
      return res;
    },
  });
  c.setNotificationHandler('notifications/tools/list_changed', () => {
    listChanges++;
    for (const f of onListChanged.splice(0)) f();
  });
  await c.connect(transport);
  await opened;
  return c;
}

const nextListChanged = () => new Promise<void>((resolve) => onListChanged.push(resolve));

/** The real consent flow: start, let the "browser" follow the fake's redirect to the loopback listener, wait. */
async function connectGoogle(options: GoogleConnectOptions = {}) {
  const start = await app.control.startGoogleConnect({ ...options, openBrowser: false });
  expect((await browse(start.authUrl)).status).toBe(200);
  return settledFlow(app.control, start.flowId);
}

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  agentSaw.push(JSON.stringify(result));
  return { result, text: textOf(result), isError: result.isError === true };
}

/**
 * Starts concurrent tool calls while Google's token endpoint holds refreshes, and releases the
 * hold only once a refresh has reached it and every call is waiting for a token (counted on the
 * accounts layer the tools ask): the calls meet one refresh in flight however loaded the machine.
 */
async function heldRefresh<T>(start: () => Promise<T>[]): Promise<T[]> {
  const hold = google.holdRefreshes();
  const asking = pendingCalls(app.google.accounts, 'accessToken');
  try {
    const calls = start();
    const all = Promise.all(calls);
    await Promise.race([
      Promise.all([hold.arrived, asking.reach(calls.length)]),
      all.then(() => {
        throw new Error('the calls ended before the refresh was held');
      }),
    ]);
    hold.release();
    return await all;
  } finally {
    hold.release();
    asking.restore();
  }
}

async function tools() {
  const list = (await client.listTools()).tools;
  agentSaw.push(JSON.stringify(list));
  const accountsOf = (name: string) => {
    const t = list.find((x) => x.name === name);
    // A read that spans accounts (issue 33 item 6) lists them in its list form.
    const account = (
      t?.inputSchema.properties as
        Record<string, { enum?: string[]; anyOf?: { items?: { enum?: string[] } }[] }> | undefined
    )?.account;
    return t && (account?.enum ?? account?.anyOf?.[1]?.items?.enum ?? null);
  };
  return { names: list.map((t) => t.name), accountsOf };
}

describe('Google tools driven by the real accounts layer', () => {
  it('offers no Google tools before an account is connected; connecting adds them with list_changed', async () => {
    const before = await tools();
    for (const n of GOOGLE_TOOLS) expect(before.names).not.toContain(n);

    const changed = nextListChanged();
    const view = await connectGoogle();
    expect(view).toMatchObject({
      state: 'connected',
      account: { email: ALICE, readOnly: false, missingScopes: [] },
    });
    await changed;

    const after = await tools();
    for (const n of GOOGLE_TOOLS) expect(after.accountsOf(n)).toEqual([ALICE]);
  });

  it('gmail_search and calendar_list_events run through the token from the consent flow', async () => {
    const from = bridged.length;
    const search = await call('gmail_search', { query: 'receipt' });
    expect(search.isError).toBe(false);
    expect(search.text).toContain('Your Northwind receipt NW-10482');

    const events = await call('calendar_list_events', {
      time_min: '2030-03-12',
      time_max: '2030-03-12',
    });
    expect(events.isError).toBe(false);
    expect(events.text).toContain('Design review');

    const used = bridged.slice(from);
    expect(used.map((r) => r.api)).toEqual(expect.arrayContaining(['gmail', 'calendar']));
    expect(used.every((r) => r.email === ALICE && r.status === 200)).toBe(true);
    expect(google.refreshCount).toBe(0); // the access token from the code exchange was used as is
  });

  it('gmail_send waits for approval and, allowed once, sends exactly one message', async () => {
    const requested = nextRequest(app);
    const pending = call('gmail_send', {
      to: ['carol@example.org'],
      subject: 'Integration',
      body: 'Sent through the real accounts layer.',
    });
    const approval = await requested;
    expect(approval.tool).toBe('gmail_send');
    expect(approval.effect).toMatch(/^Send an email from alice@example.com/);
    expect(gmail.fake.sent).toHaveLength(0);
    await app.control.decide(approval.id, { kind: 'allow_once' });
    const sent = await pending;
    expect(sent.isError).toBe(false);
    expect(gmail.fake.sent).toHaveLength(1);
    expect(gmail.fake.sent[0]!.account).toBe(ALICE);
    expect(gmail.fake.sent[0]!.raw.toString()).toMatch(/^Subject: Integration$/m);
  });

  it('an expired access token is refreshed once for ten concurrent calls', async () => {
    // An hour passes: Google no longer accepts the token, and Airlock's copy is past its expiry.
    google.grants.expireAll();
    app.google.accounts.expire(ALICE);
    const refreshes = google.refreshCount;
    const from = bridged.length;
    const results = await heldRefresh(() =>
      Array.from({ length: 10 }, () => call('gmail_search', { query: 'receipt' })),
    );
    for (const r of results) {
      expect(r.isError).toBe(false);
      expect(r.text).toContain('Your Northwind receipt NW-10482');
    }
    expect(google.refreshCount - refreshes).toBe(1);
    const used = bridged.slice(from);
    expect(used.length).toBeGreaterThanOrEqual(10);
    expect(used.filter((r) => r.status !== 200)).toEqual([]); // no request went out with the dead token
  });

  it('a token Google rejects before its expiry is replaced by one refresh, for Gmail and Calendar alike', async () => {
    // Google stops accepting the token while Airlock still holds it as valid (e.g. a clock off by minutes).
    google.grants.expireAll();
    const refreshes = google.refreshCount;
    const results = await heldRefresh(() =>
      Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? call('gmail_search', { query: 'receipt' })
          : call('calendar_list_events', { time_min: '2030-03-12', time_max: '2030-03-12' }),
      ),
    );
    for (const r of results) {
      expect(r.isError).toBe(false);
      expect(r.text).toMatch(/Your Northwind receipt NW-10482|Design review/);
    }
    expect(google.refreshCount - refreshes).toBe(1);
  });

  it('a revoked grant answers OAUTH_REVOKED naming the account, marks it needs_reconnect, and nothing crashes', async () => {
    google.refreshFailure = REVOKED;
    google.grants.expireAll();
    app.google.accounts.expire(ALICE);
    const refreshes = google.refreshCount;

    const r = await call('gmail_search', { query: 'receipt' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('OAUTH_REVOKED');
    expect(r.text).toContain(`Reconnect ${ALICE} in Airlock`);
    const [account] = await app.control.listGoogleAccounts();
    expect(account).toMatchObject({ email: ALICE, state: 'needs_reconnect' });
    expect(account!.detail).toMatch(/invalid_grant/);

    // Other tools fail the same way at once, without hammering the token endpoint.
    const cal = await call('calendar_list_events', {
      time_min: '2030-03-12',
      time_max: '2030-03-12',
    });
    expect(cal.isError).toBe(true);
    expect(cal.text).toContain(`Reconnect ${ALICE} in Airlock`);
    expect(cal.text).toContain('OAUTH_REVOKED');
    expect(cal.result.structuredContent).toMatchObject({ error: { code: 'OAUTH_REVOKED' } });
    expect(google.refreshCount - refreshes).toBe(1);

    const status = await call('airlock_status');
    expect(status.isError).toBe(false);
    expect(status.text).toContain(`${ALICE} (needs_reconnect)`);
  });

  it('access removed at myaccount.google.com is noticed at the next call, not an hour later', async () => {
    google.refreshFailure = null;
    expect(await connectGoogle({ account: ALICE })).toMatchObject({ state: 'connected' });
    const grant = JSON.parse((await app.vault.get(`google:${ALICE}`))!) as { refreshToken: string };
    google.grants.revoke(grant.refreshToken); // ends the grant and its live access token
    const refreshes = google.refreshCount;

    const r = await call('gmail_search', { query: 'receipt' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('OAUTH_REVOKED');
    expect(r.text).toContain(ALICE);
    expect(google.refreshCount - refreshes).toBe(1); // one try, answered invalid_grant
    const [account] = await app.control.listGoogleAccounts();
    expect(account).toMatchObject({ email: ALICE, state: 'needs_reconnect' });
  });

  it('reconnecting the account through the consent flow makes its tools work again', async () => {
    google.refreshFailure = null;
    const view = await connectGoogle({ account: ALICE });
    expect(view).toMatchObject({
      state: 'connected',
      account: { email: ALICE, state: 'connected', readOnly: false },
    });
    const r = await call('gmail_search', { query: 'receipt' });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('Your Northwind receipt NW-10482');
  });

  it('a read-only second account gets the read tools only', async () => {
    google.user = BOB;
    const changed = nextListChanged();
    const view = await connectGoogle({ readOnly: true });
    expect(view).toMatchObject({
      state: 'connected',
      account: { email: BOB, readOnly: true, missingScopes: [] },
    });
    expect(view.account!.scopes).not.toContain('https://www.googleapis.com/auth/gmail.modify');
    await changed;

    const t = await tools();
    expect(t.accountsOf('gmail_search')).toEqual([ALICE, BOB]);
    expect(t.accountsOf('calendar_list_events')).toEqual([ALICE, BOB]);
    expect(t.accountsOf('gmail_send')).toEqual([ALICE]);
    expect(t.accountsOf('calendar_create_event')).toEqual([ALICE]);

    // The read-only grant is enough for reads: the bridge checked its scopes.
    const from = bridged.length;
    const search = await call('gmail_search', { query: 'receipt', account: BOB });
    expect(search.isError).toBe(false);
    expect(search.text).toMatch(/no messages/);
    const events = await call('calendar_list_events', { account: BOB });
    expect(events.isError).toBe(false);
    expect(bridged.slice(from).every((r) => r.email === BOB && r.status === 200)).toBe(true);

    // Sending as the read-only account is refused before anyone is asked or anything is sent.
    const send = await call('gmail_send', {
      to: ['carol@example.org'],
      subject: 'x',
      body: 'y',
      account: BOB,
    });
    expect(send.isError).toBe(true);
    expect(await app.control.listPending()).toEqual([]);
    expect(gmail.fake.sent).toHaveLength(1);
  });

  it('disconnecting revokes at Google and takes the tools away', async () => {
    const aliceGrant = JSON.parse((await app.vault.get(`google:${ALICE}`))!) as {
      refreshToken: string;
    };
    const bobGrant = JSON.parse((await app.vault.get(`google:${BOB}`))!) as {
      refreshToken: string;
    };

    let changed = nextListChanged();
    expect(await app.control.disconnectGoogle(ALICE)).toMatchObject({
      email: ALICE,
      revoked: true,
    });
    await changed;
    expect(google.revoked).toEqual([aliceGrant.refreshToken]);
    expect(google.grants.refresh.get(aliceGrant.refreshToken)!.revoked).toBe(true);
    // Only the read-only account is left: no write tools at all.
    const t = await tools();
    expect(t.accountsOf('gmail_search')).toEqual([BOB]);
    expect(t.names).not.toContain('gmail_send');
    expect(t.names).not.toContain('calendar_create_event');

    changed = nextListChanged();
    expect(await app.control.disconnectGoogle(BOB)).toMatchObject({ email: BOB, revoked: true });
    await changed;
    expect(google.revoked).toEqual([aliceGrant.refreshToken, bobGrant.refreshToken]);
    const none = await tools();
    for (const n of GOOGLE_TOOLS) expect(none.names).not.toContain(n);
    expect(none.names).toContain('airlock_status');
    expect(listChanges).toBeGreaterThanOrEqual(4);
  });

  it('no OAuth token or client secret reached the agent or a file in the data directory', () => {
    const secrets = [...google.grants.issued, google.clientSecret];
    expect(secrets.length).toBeGreaterThan(6);
    const sent = agentSaw.join('\n');
    for (const s of secrets) {
      expect(sent.includes(s)).toBe(false);
      expect(filesContaining(dataDir, s)).toEqual([]);
    }
  });
});
