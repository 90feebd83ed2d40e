import { describe, expect, it, vi } from 'vitest';
import type { ToolSource } from '../tools/types.js';
import type { GoogleAccountAccess, GoogleAccountInfo } from './account-access.js';
import { createCalendarSource } from './calendar/calendar-source.js';
import { createGmailSource } from './gmail/index.js';
import {
  LazyGoogleSource,
  lazyCalendarSource,
  lazyGmailSource,
  loadGoogleTools,
  type SourceFactory,
} from './lazy-source.js';

/** Accounts the test changes; no request reaches Google in these cases. */
function fakeAccess(initial: GoogleAccountInfo[] = []) {
  let accounts = initial;
  const listeners = new Set<() => void>();
  const access: GoogleAccountAccess = {
    accounts: () => accounts,
    accessToken: async () => 'token',
    apiRoot: () => 'http://127.0.0.1:1/',
    onChange: (l) => (listeners.add(l), () => listeners.delete(l)),
  };
  const set = (next: GoogleAccountInfo[]) => {
    accounts = next;
    for (const l of listeners) l();
  };
  return { access, set };
}

const alice: GoogleAccountInfo = {
  email: 'alice@example.com',
  readOnly: false,
  scopes: [],
  state: 'connected',
} as GoogleAccountInfo;
const bob: GoogleAccountInfo = { ...alice, email: 'bob@example.com', readOnly: true };

/** A grant shape's data and which readers it has (its readers are closures over each instance). */
const shapeOf = (g: unknown) =>
  g && typeof g === 'object'
    ? { data: JSON.parse(JSON.stringify(g)) as unknown, keys: Object.keys(g).sort() }
    : g;

const changed = (s: ToolSource) => new Promise<void>((resolve) => s.onChange(resolve));

/** Arguments the synchronous checks read: valid, malformed and missing, for every tool. */
const ARGS: Record<string, unknown>[] = [
  {},
  { to: ['bob@example.com'], subject: 'Hi', body: 'Hello' },
  { to: ['not an address'], subject: 'Hi', body: 'x' },
  { to: [], subject: '' },
  { name: 'Work/Projects', new_name: '' },
  { criteria: { from: 'a@b.c' }, action: { forward: 'x@y.z' } },
  {
    summary: 'Sync',
    start: '2026-03-01T10:00:00',
    end: '2026-03-01T10:15:00',
    time_zone: 'Europe/Berlin',
  },
  { summary: 'Bad', start: 'tomorrow', end: 'later', time_zone: 'Mars/Olympus' },
  { event_id: 'e1', response: 'accepted', account: 'bob@example.com' },
  { event_id: 'e1', response: 'decline' },
  { message_ids: ['m1'], remove_labels: ['INBOX'] },
  { from: 'a@b.c', archive: true, forward_to: 'x@y.z' },
];

const KINDS: { name: string; lazy: SourceFactory; real: SourceFactory }[] = [
  { name: 'Gmail', lazy: lazyGmailSource, real: createGmailSource },
  { name: 'Calendar', lazy: lazyCalendarSource, real: createCalendarSource },
];

describe.each(KINDS)('$name loaded once an account is connected (issue 34)', (kind) => {
  it('offers nothing and is ready with no account, as the real source', async () => {
    const { access } = fakeAccess();
    const lazy = kind.lazy(access);
    await lazy.ready();
    expect(lazy.tools()).toEqual([]);
    expect(lazy.tools()).toEqual(kind.real(access).tools());
    expect(lazy.status()).toEqual({ state: 'ready' });
    expect(lazy.identity?.()).toBe(kind.real(access).identity?.());
  });

  it('lists the same tools and answers the same checks once an account connects later', async () => {
    const { access, set } = fakeAccess();
    const lazy = kind.lazy(access);
    await lazy.ready();
    const announced = changed(lazy);
    set([alice, bob]);
    await announced;
    const real = kind.real(access);
    expect(lazy.tools()).toEqual(real.tools());
    expect(lazy.tools().length).toBeGreaterThan(0);
    const bound = real.tools().filter((d) => real.boundArgs?.(d.name) !== undefined);
    expect(bound.length).toBeGreaterThan(0); // not vacuous: each source binds some tool
    expect(lazy.id).toBe(real.id);
    expect(lazy.label).toBe(real.label);
    expect(lazy.identity?.()).toBe(real.identity?.());
    for (const def of real.tools()) {
      expect(shapeOf(lazy.grantShape?.(def.name))).toEqual(shapeOf(real.grantShape?.(def.name)));
      expect(lazy.toolProblem?.(def.name)).toEqual(real.toolProblem?.(def.name) ?? null);
      // What an Edit & Allow may not change (approvals/edit-binding.ts): the app registers this
      // stand-in, not the real source, so without it every edit went unbound.
      expect(lazy.boundArgs?.(def.name)).toEqual(real.boundArgs?.(def.name));
      for (const args of ARGS) {
        const a = { ...args };
        expect(lazy.validateArgs?.(def.name, a)).toEqual(real.validateArgs?.(def.name, a) ?? null);
        expect(lazy.describeEffect?.(def.name, a)).toEqual(real.describeEffect?.(def.name, a));
        expect(lazy.alwaysAsk?.(def.name, a)).toEqual(real.alwaysAsk?.(def.name, a) ?? null);
        // What a failed read falls back to (callContentOf): a filter's forward, a call's effect.
        expect(lazy.argsReach?.(def.name, a) ?? null).toEqual(
          real.argsReach?.(def.name, a) ?? null,
        );
      }
    }
    // Not vacuous: each source reads some call's effect from its arguments alone.
    expect(
      real.tools().some((d) => ARGS.some((a) => real.argsReach?.(d.name, { ...a })?.effect)),
    ).toBe(true);
    await lazy.stop?.();
    await real.stop?.();
  });

  it('lists the tools the moment the account is, once the consent flow has loaded the modules', async () => {
    await loadGoogleTools();
    const { access, set } = fakeAccess();
    const lazy = kind.lazy(access);
    await lazy.ready();
    let heard = 0;
    lazy.onChange(() => heard++);
    set([alice]);
    // No await in between: as when these modules loaded at start.
    expect(heard).toBeGreaterThan(0);
    expect(lazy.tools()).toEqual(kind.real(access).tools());
    await lazy.stop?.();
  });

  it('has the tools by the time ready() resolves when an account is connected at start', async () => {
    const { access } = fakeAccess([alice]);
    const lazy = kind.lazy(access);
    await lazy.ready();
    expect(lazy.tools()).toEqual(kind.real(access).tools());
    await lazy.stop?.();
  });
});

describe('a module that fails to load', () => {
  it('is a source error with the reason, answers a call with it, and is retried on the next change', async () => {
    const { access, set } = fakeAccess([alice]);
    const load = vi
      .fn<() => Promise<SourceFactory>>()
      .mockRejectedValueOnce(new Error('Cannot find module gmail/source.js'))
      .mockResolvedValue((a) => createGmailSource(a));
    const lazy = new LazyGoogleSource(access, { id: 'gmail', label: 'Gmail', load });
    await lazy.ready();
    expect(lazy.status()).toEqual({
      state: 'error',
      detail: "Gmail's tools could not be loaded: Cannot find module gmail/source.js",
    });
    expect(lazy.tools()).toEqual([]);
    const announced = changed(lazy);
    set([alice, bob]);
    await announced;
    expect(load).toHaveBeenCalledTimes(2);
    expect(lazy.status()).toEqual({ state: 'ready' });
    expect(lazy.tools()).toEqual(createGmailSource(access).tools());
    await lazy.stop?.();
  });

  it('answers a call it cannot load with a readable error', async () => {
    const { access } = fakeAccess([alice]);
    const load = vi.fn(async (): Promise<SourceFactory> => {
      throw new Error('disk gone');
    });
    const lazy = new LazyGoogleSource(access, { id: 'gmail', label: 'Gmail', load });
    const result = await lazy.call(
      'gmail_search',
      {},
      {
        agent: 'a',
        signal: new AbortController().signal,
      },
    );
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain(
      "Gmail's tools could not be loaded: disk gone",
    );
    expect(await lazy.precheck('gmail_send', {}, new AbortController().signal)).toBeNull();
    expect(await lazy.callContent('gmail_send', {}, new AbortController().signal)).toBeNull();
  });
});
