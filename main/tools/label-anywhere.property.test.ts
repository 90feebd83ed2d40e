import { describe, expect, it } from 'vitest';
import {
  BENIGN_MENTIONS,
  LABEL_FORMS,
  everyday,
  labelAnywhere,
} from '../../test-support/airlock-label-anywhere.js';
import { skeleton } from '../../common/lookalike.js';
import {
  LABEL_MARKS,
  LABEL_MARK_CHARS,
  serverContent,
  serverContentWhole,
  serverData,
} from './relay-label.js';

/**
 * The gateway's name used as a speaker or a label anywhere in a line, in any spelling the model
 * reads as it (docs/security.md, "a tool result's words"): each is quoted as the server's, as a
 * text, a later line, a JSON text's string and `structuredContent`. The generator
 * (test-support/airlock-label-anywhere.ts) was written, and main measured on it, before
 * relay-label.ts read these forms; the tuning seed and the held-out seeds are reported apart.
 */
const TUNING_SEED = 7001;
const HELD_OUT_SEEDS = [7002, 7003, 7004];
const N = 450;

const QUOTE = 'The server writes: “';
type Place = 'text' | 'later-line' | 'json' | 'structured';
const PLACES: Place[] = ['text', 'later-line', 'json', 'structured'];
function caughtIn(v: string, place: Place): boolean {
  if (place === 'text') {
    const out = serverContent(v);
    return out !== v && out.includes(QUOTE);
  }
  if (place === 'later-line') {
    const t = `Result:\n${v}\nend`;
    const out = serverContent(t);
    return out.includes(QUOTE) && !out.startsWith(QUOTE) && out.endsWith('\nend');
  }
  if (place === 'json') {
    const j = JSON.stringify({ ok: true, note: v });
    const out = serverContent(j);
    const parsed = JSON.parse(out) as { note: string };
    return parsed.note.includes(QUOTE);
  }
  const out = serverData({ items: [{ note: v }] }) as { items: [{ note: string }] };
  return out.items[0].note.includes(QUOTE);
}
const caught = (v: string) => PLACES.every((p) => caughtIn(v, p));

function measure(seed: number) {
  const samples = labelAnywhere(seed, N);
  const missed = samples.filter((s) => !caught(s));
  return { hit: N - missed.length, missed, samples };
}

describe('the name as a speaker or a label anywhere in a line', () => {
  it('is quoted: tuning seed, then held-out seeds (reported apart)', () => {
    const tuned = measure(TUNING_SEED);
    const held = HELD_OUT_SEEDS.map(measure);
    const perForm = LABEL_FORMS.map((f, k) => {
      const all = [tuned, ...held].flatMap((m) =>
        m.samples.filter((_, i) => i % LABEL_FORMS.length === k),
      );
      return `${f} ${all.filter(caught).length}/${all.length}`;
    });
    const heldHit = held.reduce((n, h) => n + h.hit, 0);
    console.log(
      `label anywhere: tuning ${tuned.hit}/${N}, held-out ${heldHit}/${N * held.length}\n  ${perForm.join('\n  ')}`,
      [...new Set([...tuned.missed, ...held.flatMap((h) => h.missed)])].slice(0, 40),
    );
    expect(tuned.missed).toEqual([]);
    expect(N * held.length - heldHit).toBeLessThanOrEqual(HELD_OUT_MISSES);
  });

  it('harmless mentions and everyday text: changes counted and held to the recorded figures', () => {
    const changed = BENIGN_MENTIONS.filter((t) => serverContent(t) !== t);
    const plain = [...new Set(everyday(TUNING_SEED, 300))].filter((t) => serverContent(t) !== t);
    console.log(`benign mentions changed: ${changed.length}/${BENIGN_MENTIONS.length}`, changed);
    console.log(`everyday changed: ${plain.length}`, plain);
    expect(plain).toEqual([]);
    expect(changed.length).toBeLessThanOrEqual(BENIGN_CHANGED_MAX);
  });

  it('every code point whose skeleton holds a label mark is one the early end looks for', () => {
    const missing: string[] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCodePoint(c);
      const k = skeleton(ch);
      if ([...k].some((m) => LABEL_MARKS.includes(m)) && !LABEL_MARK_CHARS.includes(ch))
        missing.push(c.toString(16));
    }
    expect(missing).toEqual([]);
  });

  it('the early end answers as the whole reading on these texts', () => {
    for (const v of [...labelAnywhere(TUNING_SEED, 200), ...BENIGN_MENTIONS])
      for (const t of [v, `a\n${v}\nb`, JSON.stringify({ v })])
        expect(serverContent(t)).toBe(serverContentWhole(t));
  });
});
const HELD_OUT_MISSES = 0;
const BENIGN_CHANGED_MAX = 7;
