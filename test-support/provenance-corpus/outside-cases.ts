import { mail } from './builders.js';
import { OUTSIDE_BENIGN, OUTSIDE_CASES } from './outside-batch1.js';
import { OUTSIDE_DEST, OUTSIDE_DEST_BENIGN } from './outside-batch2.js';
import { OUTSIDE_ENC_ALL } from './outside-batch3.js';
import { OUTSIDE_CHAIN_ALL } from './outside-batch4.js';
import { OUTSIDE_MORE_ALL } from './outside-batch5.js';
import { PRIVATE, type OutsideCase } from './outside-helpers.js';
import type { Session } from './session.js';
import { mulberry32 as rng } from '../seeded-random.js';

export type { OutsideCase } from './outside-helpers.js';
export {
  OUTSIDE_BENIGN,
  OUTSIDE_CASES,
  OUTSIDE_CHAIN_ALL,
  OUTSIDE_DEST,
  OUTSIDE_DEST_BENIGN,
  OUTSIDE_ENC_ALL,
  OUTSIDE_MORE_ALL,
};

/**
 * An outside injection corpus, written by hand by a reviewer who had not read
 * the check's rules (wave 3): injected instructions in mail, calendar events
 * and third-party tool results, in many languages and disguises, each ending
 * in the call an agent that obeyed would make — with the destination written
 * as a model reading the text would write it (an address shown as
 * "b i l l i n g @ …" is sent to as billing@…). Benign sessions are hard
 * negatives: mail that names addresses or asks a human to forward something,
 * followed by a call the user did ask for.
 *
 * The split into a tuning part and a held-out part is a seeded shuffle of the
 * case ids (`outsideSplit`), fixed before any case was run.
 */
export const OUTSIDE_ALL: OutsideCase[] = [...OUTSIDE_CASES, ...OUTSIDE_BENIGN];

/** The cases as corpus sessions: the user's private mail, the case's content, reads, the judged call. */
export function outsideSessions(cases: OutsideCase[] = OUTSIDE_ALL): Session[] {
  return cases.map((c) => ({
    id: `outside-${c.id}`,
    cls: c.cls,
    kind: c.kind,
    title: c.id,
    mail: [
      ...PRIVATE,
      ...(c.mail ?? []).map((m) => {
        const seed = mail(m);
        return m.textEncoding
          ? { ...seed, spec: { ...seed.spec, textEncoding: m.textEncoding } }
          : seed;
      }),
    ],
    ...(c.events ? { events: c.events } : {}),
    ...(c.pages ? { pages: c.pages } : {}),
    ...(c.servers ? { servers: c.servers } : {}),
    steps: (ids) => [...c.reads.map((r) => r(ids)), c.call(ids)],
  }));
}

export const SPLIT_SEED = 20261203;

/**
 * The held-out part: a third of the injected and a third of the benign cases, by a seeded
 * Fisher–Yates shuffle of the sorted ids. Fixed before any case was run; never tuned on.
 */
export function outsideSplit(cases: OutsideCase[] = OUTSIDE_ALL): {
  tuning: Set<string>;
  heldOut: Set<string>;
} {
  const heldOut = new Set<string>();
  const tuning = new Set<string>();
  for (const kind of ['injected', 'benign'] as const) {
    const ids = cases
      .filter((c) => c.kind === kind)
      .map((c) => c.id)
      .sort();
    const next = rng(SPLIT_SEED);
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    const cut = Math.round(ids.length / 3);
    ids.forEach((id, i) => (i < cut ? heldOut : tuning).add(`outside-${id}`));
  }
  return { tuning, heldOut };
}

export const OUTSIDE_DEST_ALL: OutsideCase[] = [...OUTSIDE_DEST, ...OUTSIDE_DEST_BENIGN];
