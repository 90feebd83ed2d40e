import { plainEffect } from '../../common/plain-effect.js';
import type { ToolEntry } from '../tools/registry.js';

/** How long an approval waits for a source's richer effect text before using the plain one. */
export const EFFECT_LOOKUP_MS = 3000;

/**
 * How long before that bound the source's lookup is told to stop: its requests end then, and it
 * still has this long to say what the ones that came back found (Gmail: the nine of ten messages
 * being trashed it could read) before the plain text is used. Gmail's own bound on the lookup's
 * requests was 2.5 s for this reason before the signal replaced it.
 */
export const EFFECT_COMPOSE_MS = 500;

/**
 * The approval's statement of effect. A source may look things up for it
 * (Calendar checks for overlaps); that lookup is bounded so a slow API never
 * holds the request back from the user, who then sees the plain summary. The
 * source is given a signal aborted EFFECT_COMPOSE_MS before the bound, so its
 * lookup's requests end there and it can still answer with what it found.
 * `ms` is EFFECT_LOOKUP_MS; tests pass a bound no lookup reaches, so a loaded
 * machine cannot turn a looked-up text into the plain one.
 */
export async function effectOf(
  entry: ToolEntry,
  args: Record<string, unknown>,
  ms = EFFECT_LOOKUP_MS,
): Promise<string> {
  // Without the source's own statement: "<title>: <first line of the description>", each on one
  // line (issue 17 item 8: a title with "\nTo: …" must not read as e-mail headers). The card
  // labels it as the server's words (issue 16 item 4), reading it back with the same function
  // (common/plain-effect.ts).
  const plain =
    entry.source.describeEffect?.(entry.def.name, args) ??
    plainEffect(entry.def.title ?? entry.name, entry.def.description);
  if (!entry.source.describeEffectAsync) return plain;
  const stop = new AbortController();
  const reads = setTimeout(() => stop.abort(), Math.max(0, ms - EFFECT_COMPOSE_MS));
  let timer: NodeJS.Timeout | undefined;
  const fallback = new Promise<string>(
    (resolve) =>
      (timer = setTimeout(() => {
        stop.abort();
        resolve(plain);
      }, ms)),
  );
  try {
    return await Promise.race([
      entry.source.describeEffectAsync(entry.def.name, args, stop.signal).catch(() => plain),
      fallback,
    ]);
  } finally {
    clearTimeout(reads);
    clearTimeout(timer);
  }
}
