import { mailFixtures, type FixtureName } from '../fixtures/mail/messages.js';
import { GmailSource, type GmailSourceOptions } from '../../main/google/gmail/source.js';
import { account, StaticGoogleAccess } from './gmail-access.js';
import { GmailFake, type FakeAccount } from './gmail-fake.js';

export const ALICE: FakeAccount = {
  email: 'alice@example.com',
  token: 'ya29.fake-token-alice-7f3a9c',
  displayName: 'Alice Example',
};
export const BOB: FakeAccount = {
  email: 'bob@example.net',
  token: 'ya29.fake-token-bob-21d4e8',
  readOnly: true,
};

export interface SeededGmail {
  fake: GmailFake;
  /** Fixture name → Gmail message id (and thread id). */
  ids: Record<FixtureName, { id: string; threadId: string }>;
  /** User label "Receipts" id. */
  receiptsLabel: string;
}

/** A started fake Gmail with Alice's mailbox filled from e2e/fixtures/mail and Bob's (read-only) empty. */
export async function startSeededGmail(options: { latencyMs?: number } = {}): Promise<SeededGmail> {
  const fake = await new GmailFake([ALICE, BOB], options).start();
  const fixtures = await mailFixtures(ALICE.email);
  const threads = new Map<string, string>();
  const receiptsLabel = fake.addLabel(ALICE.email, 'Receipts');
  const ids = {} as SeededGmail['ids'];
  for (const [name, seed] of Object.entries(fixtures) as [
    FixtureName,
    (typeof fixtures)[FixtureName],
  ][]) {
    ids[name] = fake.add(
      ALICE.email,
      name === 'receipt' ? { ...seed, labelIds: [...(seed.labelIds ?? []), receiptsLabel] } : seed,
      threads,
    );
  }
  return { fake, ids, receiptsLabel };
}

/** What a Gmail tool test needs: the seeded fake, a static access for Alice (+ read-only Bob) and the source. */
export async function gmailTestbed(
  options: { latencyMs?: number; withBob?: boolean; source?: GmailSourceOptions } = {},
) {
  const seeded = await startSeededGmail(
    options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {},
  );
  const access = new StaticGoogleAccess(seeded.fake.root, [
    account(ALICE.email, ALICE.token),
    ...(options.withBob ? [account(BOB.email, BOB.token, true)] : []),
  ]);
  // Millisecond backoff keeps retry tests fast; the policy is the same.
  const source = new GmailSource(access, { retry: { baseMs: 1 }, ...options.source });
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const result = await source.call(tool, args, {
      agent: 'test',
      signal: new AbortController().signal,
    });
    const text = (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    return { result, text, isError: result.isError === true };
  };
  return { ...seeded, access, source, call, stop: () => seeded.fake.stop() };
}
