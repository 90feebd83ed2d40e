/**
 * How the input-rounds properties read a call's answers (main/gateway/input-rounds*.property.test.ts):
 * each `requestState` token named by its order of first appearance (`token0`, `token1`, …), so two
 * implementations' logs compare equal though their random ids differ; and an answer watched from
 * the moment it is made, read once the schedule has run to rest.
 */

/** One event-loop turn: every job queued by the schedule so far has run. */
export const rest = (): Promise<void> => new Promise<void>((r) => setImmediate(r));

export function roundAnswers(): {
  shown: (answer: unknown) => unknown;
  watch: (p: Promise<unknown>) => () => Promise<unknown>;
  /** The real requestState behind a name `shown` gave (`token0` → its random id). */
  token: (name: string) => string;
} {
  const tokens = new Map<string, number>();
  const shown = (answer: unknown): unknown => {
    const a = answer as { requestState?: string };
    if (typeof a?.requestState !== 'string') return answer;
    if (!tokens.has(a.requestState)) tokens.set(a.requestState, tokens.size);
    return { ...a, requestState: `token${tokens.get(a.requestState)}` };
  };
  const watch = (p: Promise<unknown>) => {
    let out: unknown = 'pending';
    p.then(
      (v) => (out = { ok: shown(v) }),
      (e: unknown) => (out = { error: String(e) }),
    );
    return async () => {
      await rest();
      await rest();
      return out;
    };
  };
  const token = (name: string): string => {
    const found = [...tokens].find(([, n]) => `token${n}` === name);
    if (!found) throw new Error(`no requestState was shown as ${name}`);
    return found[0];
  };
  return { shown, watch, token };
}

/**
 * A call's view of its signal in the schedules: rejects with the signal's reason when it aborts,
 * logging `['signal', reason]` at that moment (handled, so a schedule that never waits on it
 * leaves no unhandled rejection).
 */
export function abortion(signal: AbortSignal, log: unknown[]): Promise<never> {
  const aborted = new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => {
      log.push(['signal', String(signal.reason)]);
      reject(signal.reason as Error);
    }),
  );
  aborted.catch(() => {});
  return aborted;
}
