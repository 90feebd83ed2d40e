import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalView, CoreEvent } from '../../common/contract/index.js';
import {
  connectClient,
  CountingSource,
  startTestApp,
  textOf,
  type TestApp,
} from '../../test-support/harness.js';
import { EFFECT_LOOKUP_MS } from '../calls/effect-text.js';
import { precheckOf, PRECHECK_MS } from './precheck.js';
import type { ToolEntry } from './registry.js';

/**
 * The two hooks issue 33 added to ToolSource, through the real call pipeline:
 * `precheck` refuses a call that cannot run before the user is asked;
 * `alwaysAsk` puts a standing side effect to the user whatever the policy or a grant.
 */
class CheckingSource extends CountingSource {
  prechecks = 0;
  async precheck(_tool: string, args: Record<string, unknown>): Promise<string | null> {
    this.prechecks++;
    return args.to === 'nobody' ? 'There is no recipient "nobody".' : null;
  }
  alwaysAsk(_tool: string, args: Record<string, unknown>): string | null {
    return String(args.to).startsWith('forward-') ? 'forwards future mail' : null;
  }
}

let t: TestApp | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await t?.stop();
  t = undefined;
});

/** Approval requests as they come; `asked.nth(n)` waits for the n-th (1-based). */
function requests(app: TestApp['app']) {
  const seen: ApprovalView[] = [];
  const waiters: (() => void)[] = [];
  app.events.subscribe((e: CoreEvent) => {
    if (e.type !== 'approval.requested') return;
    seen.push(e.approval);
    for (const w of waiters.splice(0)) w();
  });
  const nth = async (n: number): Promise<ApprovalView> => {
    while (seen.length < n) await new Promise<void>((r) => waiters.push(r));
    return seen[n - 1]!;
  };
  return Object.assign(seen, { nth });
}

async function setup() {
  const source = new CheckingSource();
  t = await startTestApp({ sources: [source] });
  const client = await connectClient(t.started.mcpUrl, t.token);
  return { source, client, app: t.app, asked: requests(t.app) };
}

describe('precheck: refused before the user is asked', () => {
  it('a call the source can tell will fail is refused, never asked about, and logged', async () => {
    const { source, client, app, asked } = await setup();
    const r = await client.callTool({ name: 'count_send', arguments: { to: 'nobody' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('There is no recipient "nobody".');
    expect(asked).toHaveLength(0);
    expect(await app.control.listPending()).toHaveLength(0);
    expect(source.count('count_send')).toBe(0);
    const [row] = await app.control.listActivity();
    expect(row).toMatchObject({ tool: 'count_send', decision: 'rejected' });
  });

  it('a call that can run is asked about as before; auto calls skip the check', async () => {
    const { source, client, app, asked } = await setup();
    const call = client.callTool({ name: 'count_send', arguments: { to: 'carol' } });
    await app.control.decide((await asked.nth(1)).id, { kind: 'allow_once' });
    expect(textOf(await call)).toMatch(/^count_send ok/);
    expect(source.prechecks).toBe(1);
    await client.callTool({ name: 'count_read', arguments: {} });
    expect(source.prechecks).toBe(1);
  });
});

describe('alwaysAsk: a standing side effect asks whatever the policy', () => {
  it('asks under an auto policy and past an always-allow grant; other calls run freely', async () => {
    const { source, client, app, asked } = await setup();
    await app.control.setToolPolicy('count_send', { approval: 'auto' });
    expect(
      textOf(await client.callTool({ name: 'count_send', arguments: { to: 'carol' } })),
    ).toMatch(/^count_send ok/);
    expect(asked).toHaveLength(0);
    const call = client.callTool({ name: 'count_send', arguments: { to: 'forward-all' } });
    const first = await asked.nth(1);
    expect(source.count('count_send')).toBe(1);
    // "Always allow" on it makes a grant — which still does not cover the next such call.
    await app.control.setToolPolicy('count_send', { approval: 'ask' });
    await app.control.decide(first.id, { kind: 'always_allow', confirm: true });
    await call;
    expect(source.count('count_send')).toBe(2);
    // (A different call: an identical one within a minute gets the first one's answer.)
    const again = client.callTool({ name: 'count_send', arguments: { to: 'forward-bob' } });
    await app.control.decide((await asked.nth(2)).id, { kind: 'deny' });
    expect((await again).isError).toBe(true);
    expect(source.count('count_send')).toBe(2);
  });
});

describe("the App's read bounds (AppOptions.readBounds)", () => {
  const signal = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };
  /** A check and an effect lookup that answer when the test says. */
  class SlowSource extends CountingSource {
    checking = signal();
    checked = signal();
    looking = signal();
    looked = signal();
    async precheck(_tool: string, args: Record<string, unknown>): Promise<string | null> {
      this.checking.resolve();
      await this.checked.promise;
      return args.to === 'nobody' ? 'There is no recipient "nobody".' : null;
    }
    describeEffect(): string {
      return 'Send a message';
    }
    async describeEffectAsync(): Promise<string> {
      this.looking.resolve();
      await this.looked.promise;
      return 'Send a message to Bob Example';
    }
  }

  // The harness's bounds (PATIENT_READS) reach the pipeline: past the product's bounds on a fake
  // clock, the check still refuses and the card still shows the looked-up text.
  it('a check slower than PRECHECK_MS still refuses, a lookup slower than EFFECT_LOOKUP_MS still shows', async () => {
    const source = new SlowSource();
    t = await startTestApp({ sources: [source] });
    const client = await connectClient(t.started.mcpUrl, t.token);
    const asked = requests(t.app);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const refused = client.callTool({ name: 'count_send', arguments: { to: 'nobody' } });
    await source.checking.promise;
    vi.advanceTimersByTime(PRECHECK_MS);
    source.checked.resolve();
    // Past its bound the check would count for nothing and the user would be asked (the card's
    // lookup starting is the first sign of it).
    const first = await Promise.race([
      refused.then(textOf),
      source.looking.promise.then(() => 'asked'),
    ]);
    expect(first).toBe('There is no recipient "nobody".');
    expect(asked).toHaveLength(0);

    const call = client.callTool({ name: 'count_send', arguments: { to: 'bob' } });
    await source.looking.promise;
    vi.advanceTimersByTime(EFFECT_LOOKUP_MS);
    source.looked.resolve();
    expect((await asked.nth(1)).effect).toBe('Send a message to Bob Example');
    vi.useRealTimers();
    await t.app.control.decide(asked[0]!.id, { kind: 'deny' });
    expect((await call).isError).toBe(true);
  });
});

describe('precheckOf bounds the check', () => {
  const entry = (precheck: () => Promise<string | null>) =>
    ({ def: { name: 'x' }, source: { precheck } }) as unknown as ToolEntry;

  it('asks anyway when the check is slower than PRECHECK_MS, and cancels its requests', async () => {
    vi.useFakeTimers();
    let seen: AbortSignal | undefined;
    const pending = precheckOf(
      entry(function (this: unknown, ...a: unknown[]) {
        seen = a[2] as AbortSignal;
        return new Promise(() => {});
      }),
      {},
      new AbortController().signal,
    );
    await vi.advanceTimersByTimeAsync(PRECHECK_MS);
    expect(await pending).toBeNull();
    expect(seen?.aborted).toBe(true);
  });

  it('a bound given (AppOptions.readBounds) replaces PRECHECK_MS', async () => {
    vi.useFakeTimers();
    let settled = false;
    const pending = precheckOf(
      entry(() => new Promise(() => {})),
      {},
      new AbortController().signal,
      60_000,
    ).then((r) => ((settled = true), r));
    await vi.advanceTimersByTimeAsync(PRECHECK_MS);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000 - PRECHECK_MS);
    expect(await pending).toBeNull();
  });

  it('ends when the agent gives up, and treats a failing check as no finding', async () => {
    const agent = new AbortController();
    const pending = precheckOf(
      entry(() => new Promise(() => {})),
      {},
      agent.signal,
    );
    agent.abort();
    expect(await pending).toBeNull();
    expect(
      await precheckOf(
        entry(() => Promise.reject(new Error('boom'))),
        {},
        new AbortController().signal,
      ),
    ).toBeNull();
  });
});
