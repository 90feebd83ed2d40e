import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolEntry } from '../tools/registry.js';
import type { ToolSource } from '../tools/types.js';
import { EFFECT_COMPOSE_MS, EFFECT_LOOKUP_MS, effectOf } from './effect-text.js';

/**
 * The approval's effect text (effect-text.ts): a source's lookup, bounded (EFFECT_LOOKUP_MS, or
 * the bound a test passes through AppOptions.readBounds) and ended at its bound. The bound on a
 * fake clock: it runs out when the test says, not when the machine is slow.
 */
function entryWith(lookup: (signal: AbortSignal | undefined) => Promise<string>): {
  entry: ToolEntry;
  signals: (AbortSignal | undefined)[];
} {
  const signals: (AbortSignal | undefined)[] = [];
  const source = {
    describeEffect: () => 'Send an email to bob@example.com',
    describeEffectAsync: (_tool: string, _args: Record<string, unknown>, signal?: AbortSignal) => {
      signals.push(signal);
      return lookup(signal);
    },
  } as unknown as ToolSource;
  const def = { name: 'send', description: 'Sends.', inputSchema: { type: 'object' as const } };
  return { entry: { name: 'send', key: 'src/send', source, def }, signals };
}

const never = () => new Promise<string>(() => {});

afterEach(() => vi.useRealTimers());

describe('effectOf', () => {
  it('the looked-up text when the lookup answers within the bound; its signal is not aborted', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { entry, signals } = entryWith(async () => 'Send "Lunch" to bob@example.com');
    expect(await effectOf(entry, {})).toBe('Send "Lunch" to bob@example.com');
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(false);
  });

  it('the plain text at the bound, not before; the lookup is told to stop EFFECT_COMPOSE_MS before it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { entry, signals } = entryWith(never);
    let settled: string | undefined;
    const text = effectOf(entry, {}).then((t) => (settled = t));
    await vi.advanceTimersByTimeAsync(EFFECT_LOOKUP_MS - EFFECT_COMPOSE_MS - 1);
    expect(signals[0]!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signals[0]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(EFFECT_COMPOSE_MS - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(await text).toBe('Send an email to bob@example.com');
  });

  // Gmail looks up each message a trash or relabel names; when one is slow, the card still shows
  // the ones it read (effects.ts: its requests end with the signal, then it describes what came
  // back). Told to stop only at the bound, that answer would lose to the plain text.
  it('a lookup told to stop answers with what it found, and that text is shown', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { entry } = entryWith(
      (signal) =>
        new Promise<string>((resolve) =>
          signal!.addEventListener('abort', () => resolve('Trash "Lunch" and 1 more message'), {
            once: true,
          }),
        ),
    );
    const text = effectOf(entry, {});
    await vi.advanceTimersByTimeAsync(EFFECT_LOOKUP_MS);
    expect(await text).toBe('Trash "Lunch" and 1 more message');
  });

  it('a bound given (a test hook) replaces the default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { entry, signals } = entryWith(never);
    let settled: string | undefined;
    const text = effectOf(entry, {}, 60_000).then((t) => (settled = t));
    await vi.advanceTimersByTimeAsync(EFFECT_LOOKUP_MS);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(60_000 - EFFECT_LOOKUP_MS);
    expect(await text).toBe('Send an email to bob@example.com');
    expect(signals[0]!.aborted).toBe(true);
  });

  it('a lookup that fails gives the plain text at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { entry } = entryWith(() => Promise.reject(new Error('503')));
    expect(await effectOf(entry, {})).toBe('Send an email to bob@example.com');
  });
});
