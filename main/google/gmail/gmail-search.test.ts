import { afterEach, describe, expect, it } from 'vitest';
import { gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { bulkMessages } from '../../../e2e/fixtures/mail/messages.js';
import { ALICE } from '../../../e2e/fake-google/gmail-seed.js';
import { account } from '../../../e2e/fake-google/gmail-access.js';

let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const isList = (r: { method: string; path: string }) =>
  r.method === 'GET' && r.path.endsWith('/users/me/messages');
const isGet = (r: { method: string; path: string }) =>
  r.method === 'GET' && /\/users\/me\/messages\/[0-9a-f]{16}$/.test(r.path);

describe('gmail_search', () => {
  it('returns id, thread, from, to, subject, date, snippet, labels and attachment names', async () => {
    t = await gmailTestbed();
    const r = await t.call('gmail_search', { query: 'has:attachment' });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^Gmail search "has:attachment": 2 messages, newest first\./);
    const { id, threadId } = t.ids.attachments;
    expect(r.text).toContain(
      [
        '2. Invoice and project plan',
        '   From: Grace Accounts <accounts@northwind.example> · To: alice@example.com',
        `   Date: Wed, 08 May 2024 12:00:00 +0000 · id ${id} · thread ${threadId}`,
        '   Labels: INBOX · Attachments: invoice-2024-0042.pdf, Project Plan.docx, site-photo.png, totals.csv',
        '   Hello Alice, Please find the invoice and the project plan attached. Grace',
      ].join('\n'),
    );
    // Inline images are not attachments in a listing; user label ids show as names.
    expect(r.text).toContain('Attachments: notes.txt');
    const receipts = await t.call('gmail_search', { query: 'label:receipts' });
    expect(receipts.text).toContain('Labels: INBOX, UNREAD, CATEGORY_UPDATES, Receipts');
    // Gmail's HTML-escaped snippets are decoded.
    const quote = await t.call('gmail_search', { query: 'subject:repair' });
    expect(quote.text).toContain('The “full service” costs €250 – parts included.');
    expect(quote.text).not.toContain('&#39;');
  });

  it('makes one list call and fetches the metadata in one batch request', async () => {
    t = await gmailTestbed({ latencyMs: 25, source: { concurrency: 8 } });
    for (const seed of bulkMessages(40)) t.fake.add(ALICE.email, seed);
    t.fake.resetCounters();
    const r = await t.call('gmail_search', { query: 'subject:weekly', max_results: 40 });
    expect(r.text).toMatch(/40 messages, newest first/);
    expect(t.fake.count(isList)).toBe(1);
    expect(t.fake.count(isGet)).toBe(40);
    expect(t.fake.count((r) => r.batchSize !== undefined)).toBe(1); // the 40 GETs travelled in one batch
    expect(t.fake.httpRequests()).toBeLessThanOrEqual(3); // list, batch, labels
  });

  it('pages with page_token and bounds max_results', async () => {
    t = await gmailTestbed();
    for (const seed of bulkMessages(60)) t.fake.add(ALICE.email, seed);
    const first = await t.call('gmail_search', { query: 'subject:"weekly update"' });
    expect(first.text).toMatch(/20 messages/);
    const token = /page_token="([^"]+)"/.exec(first.text)![1]!;
    const second = await t.call('gmail_search', {
      query: 'subject:"weekly update"',
      page_token: token,
      max_results: 50,
    });
    expect(second.text).toMatch(/40 messages/);
    expect(second.text).toContain('Weekly update 0');
    expect(second.text).not.toContain('page_token=');
    expect(first.text).toContain('Weekly update 59');
    t.fake.resetCounters();
    await t.call('gmail_search', { query: 'subject:weekly', max_results: 500 });
    expect(t.fake.requests.find(isList)?.query.get('maxResults')).toBe('50');
  });

  it('retries a read on 429 and 500 with backoff, and succeeds', async () => {
    t = await gmailTestbed();
    t.fake.fail({ match: isList, status: 429, times: 2, retryAfter: 0 });
    t.fake.fail({ match: isGet, status: 500, times: 3 });
    const r = await t.call('gmail_search', { query: 'subject:agenda' });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('Agenda for Tuesday');
    expect(t.fake.count(isList)).toBe(3);
    expect(t.fake.count(isGet)).toBe(4);
  });

  it('waits out a short Retry-After before the next try', async () => {
    t = await gmailTestbed();
    t.fake.fail({ match: isList, status: 429, times: 1, retryAfter: 1 });
    const r = await t.call('gmail_search', { query: 'subject:agenda' });
    expect(r.text).toContain('Agenda for Tuesday');
    // The retry went out only after the Retry-After second, as the fake saw it. A lower bound
    // cannot fail because the machine is slow.
    const [first, retry] = t.fake.requests.filter(isList);
    expect(retry!.startedAt - first!.endedAt!).toBeGreaterThanOrEqual(950);
  });

  it('passes a persistent 429 on as RATE_LIMITED with a hint, after the retries', async () => {
    t = await gmailTestbed();
    t.fake.fail({ match: isList, status: 429, times: 100 });
    const r = await t.call('gmail_search', { query: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'Gmail is rate-limiting alice@example.com (429: Too many concurrent requests for user.). Try again in 30 seconds. [RATE_LIMITED]',
    );
    expect(t.fake.count(isList)).toBe(4); // the retry policy's 4 tries
  });

  it('does not sit out a long Retry-After: it tells the agent at once', async () => {
    t = await gmailTestbed();
    t.fake.fail({ match: isList, status: 429, times: 100, retryAfter: 3600 });
    const r = await t.call('gmail_search', { query: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(
      /Gmail is rate-limiting alice@example\.com \(429: .*\)\. Try again in 3600 seconds\. \[RATE_LIMITED\]/,
    );
    // One try, no retry: it did not wait (had it sat out 3600 s, the test timeout would say so).
    expect(t.fake.count(isList)).toBe(1);
  });

  it('turns 401 and 403 insufficient scope into readable errors without retrying', async () => {
    t = await gmailTestbed();
    t.fake.fail({ match: isList, status: 401 });
    const r401 = await t.call('gmail_search', { query: 'x' });
    expect(r401.isError).toBe(true);
    expect(r401.text).toMatch(
      /Google did not accept Airlock's sign-in for alice@example.com \(401.*reconnect this account.*\[OAUTH_REVOKED\]/,
    );
    t.fake.fail({ match: isList, status: 403 });
    const r403 = await t.call('gmail_search', { query: 'x' });
    expect(r403.text).toMatch(
      /does not include permission for .*\(403: Request had insufficient authentication scopes\.\).*\[OAUTH_SCOPE\]/,
    );
    expect(t.fake.count(isList)).toBe(2);
  });

  it('keeps the other results when one message cannot be loaded', async () => {
    t = await gmailTestbed();
    t.fake.fail({ match: (r) => r.path.endsWith(t!.ids.alternative.id), status: 404 });
    const r = await t.call('gmail_search', { query: '' });
    expect(r.isError).toBe(false);
    expect(r.text).toContain(`id ${t.ids.alternative.id} — could not be loaded`);
    expect(r.text).toContain('Your Northwind receipt');
  });

  it('reports an account that needs reconnecting without calling Gmail', async () => {
    t = await gmailTestbed();
    t.access.setAccounts([{ ...account(ALICE.email, ALICE.token), state: 'needs_reconnect' }]);
    const r = await t.call('gmail_search', { query: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toBe('alice@example.com needs to be reconnected in Airlock. [OAUTH_REVOKED]');
    expect(t.fake.requests).toHaveLength(0);
  });

  it('never puts the access token in a result', async () => {
    t = await gmailTestbed();
    t.fake.fail({ match: isList, status: 401 });
    const r = await t.call('gmail_search', { query: 'x' });
    expect(JSON.stringify(r.result)).not.toContain(ALICE.token);
  });
});
