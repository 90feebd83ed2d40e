import { afterEach, describe, expect, it } from 'vitest';
import { MAX_BATCH_CALLS } from '../../../e2e/fake-google/gmail-batch.js';
import { ALICE, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { bulkMessages } from '../../../e2e/fixtures/mail/messages.js';

/**
 * gmail_search through Gmail's batch endpoint (issue 18.5), against the fake's
 * own multipart/mixed implementation: counts of HTTP requests and round trips
 * (never times — those are in `npm run bench`).
 */

let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const isGet = (r: { method: string; path: string }) =>
  r.method === 'GET' && /\/users\/me\/messages\/[0-9a-f]{16}$/.test(r.path);
const isBatch = (r: { batchSize?: number }) => r.batchSize !== undefined;

describe('gmail_search batches its message reads', () => {
  it('a 50-message search is the list, one batch of 50, and the labels: 3 HTTP requests, ≤ 3 round trips', async () => {
    t = await gmailTestbed();
    for (const seed of bulkMessages(50)) t.fake.add(ALICE.email, seed);
    t.fake.resetCounters();
    const r = await t.call('gmail_search', { query: 'subject:weekly', max_results: 50 });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/50 messages, newest first/);
    expect(r.text).not.toContain('could not be loaded');
    expect(t.fake.count(isGet)).toBe(50);
    expect(t.fake.requests.filter(isBatch).map((b) => b.batchSize)).toEqual([50]);
    expect(t.fake.httpRequests()).toBeLessThanOrEqual(3);
    expect(t.fake.roundTrips()).toBeLessThanOrEqual(3);
    // A second search finds the label names known: the list and one batch.
    t.fake.resetCounters();
    await t.call('gmail_search', { query: 'subject:weekly', max_results: 50 });
    expect(t.fake.httpRequests()).toBe(2);
  });

  it('parts Gmail answers 429 (per-user concurrency) go again in a second, smaller batch', async () => {
    t = await gmailTestbed();
    for (const seed of bulkMessages(50)) t.fake.add(ALICE.email, seed);
    t.fake.batchConcurrency = 30;
    t.fake.resetCounters();
    const r = await t.call('gmail_search', { query: 'subject:weekly', max_results: 50 });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/50 messages/);
    expect(r.text).not.toContain('could not be loaded');
    expect(t.fake.requests.filter(isBatch).map((b) => b.batchSize)).toEqual([50, 20]);
  });

  it('one part failing (404) leaves the others, and a part 500 is retried on its own', async () => {
    t = await gmailTestbed();
    const gone = t.ids.alternative.id;
    t.fake.fail({ match: (r) => r.path.endsWith(gone), status: 404, times: 5 });
    t.fake.fail({
      match: (r) => r.batched === true && r.path.endsWith(t!.ids.attachments.id),
      status: 500,
    });
    const r = await t.call('gmail_search', { query: '' });
    expect(r.isError).toBe(false);
    expect(r.text).toContain(`id ${gone} — could not be loaded: Gmail found no message ${gone}`);
    expect(r.text).toContain('Invoice and project plan');
    const batches = t.fake.requests.filter(isBatch).map((b) => b.batchSize);
    expect(batches).toHaveLength(2);
    expect(batches[1]).toBe(1);
  });

  it('a 429 for the whole batch request is retried; a persistent one becomes RATE_LIMITED', async () => {
    t = await gmailTestbed();
    t.fake.fail({ match: isBatch, status: 429, times: 1, retryAfter: 0 });
    const ok = await t.call('gmail_search', { query: 'subject:agenda' });
    expect(ok.isError).toBe(false);
    expect(ok.text).toContain('Agenda for Tuesday');
    t.fake.fail({
      match: (r) => r.path === '/batch/gmail/v1',
      status: 429,
      times: 100,
      retryAfter: 1,
    });
    const limited = await t.call('gmail_search', { query: 'subject:agenda' });
    expect(limited.isError).toBe(true);
    expect(limited.text).toMatch(/Try again in 1 second\. \[RATE_LIMITED\]$/);
  });

  it('the fake refuses what Google refuses: more than 100 calls, and a body that is not multipart/mixed', async () => {
    t = await gmailTestbed();
    const url = new URL('batch/gmail/v1', t.fake.root);
    const auth = { authorization: `Bearer ${ALICE.token}` };
    const part = (i: number) =>
      `--b\r\nContent-Type: application/http\r\nContent-ID: <i${i}>\r\n\r\nGET /gmail/v1/users/me/labels\r\n\r\n`;
    const tooMany = await fetch(url, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'multipart/mixed; boundary=b' },
      body: Array.from({ length: MAX_BATCH_CALLS + 1 }, (_, i) => part(i)).join('') + '--b--\r\n',
    });
    expect(tooMany.status).toBe(400);
    const notMultipart = await fetch(url, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(notMultipart.status).toBe(400);
    const two = await fetch(url, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'multipart/mixed; boundary=b' },
      body: part(1) + part(2) + '--b--\r\n',
    });
    expect(two.headers.get('content-type')).toMatch(/^multipart\/mixed; boundary=/);
    const text = await two.text();
    expect(text.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    expect(text).toContain('Content-ID: <response-i2>');
  });
});
