import type { ToolEntry } from './registry.js';

/**
 * How long a source's pre-approval check may hold a call before the user is
 * asked anyway: the check only spares the user an approval that cannot run,
 * so a slow API must not hold the request back.
 */
export const PRECHECK_MS = 5000;

/**
 * The source's refusal of a call it can already tell will fail
 * (ToolSource.precheck, issue 33 item 4), or null — also when the check is
 * slow, fails, or the agent gave up. The check's own requests are cancelled then.
 */
export async function precheckOf(
  entry: ToolEntry,
  args: Record<string, unknown>,
  signal: AbortSignal,
  ms = PRECHECK_MS,
): Promise<string | null> {
  if (!entry.source.precheck || signal.aborted) return null;
  const check = entry.source.precheck.bind(entry.source);
  return boundedRead((stop) => check(entry.def.name, args, stop), signal, ms);
}

/**
 * A source's read before asking, bounded: null when it fails, takes longer than `ms` (PRECHECK_MS;
 * tests pass a bound no read reaches, so a loaded machine cannot turn a read into a null) or the
 * agent gives up — its own requests are then cancelled through the signal it is given.
 */
export async function boundedRead<T>(
  read: (signal: AbortSignal) => Promise<T | null>,
  signal: AbortSignal,
  ms = PRECHECK_MS,
): Promise<T | null> {
  const stop = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const gaveUp = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      stop.abort();
      resolve(null);
    }, ms);
    stop.signal.addEventListener('abort', () => resolve(null), { once: true });
  });
  try {
    return await Promise.race([read(stop.signal).catch(() => null), gaveUp]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
