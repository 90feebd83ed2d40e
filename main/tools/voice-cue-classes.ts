import { skeleton } from '../../common/lookalike.js';

/**
 * The classes of code points the voice cue (relay-label.ts, serverContent's early end) is made
 * of, by what each code point's skeleton (common/lookalike.ts) is — the reading builds a line's
 * skeleton one code point at a time, so a code point's class is all it can add to a phrase:
 * - `E`: nothing (combining marks, default-ignorable characters): anywhere, any number;
 * - `S`: signs only (no letter or digit): a phrase's separator (SEP);
 * - one key per phrase letter: that letter alone (a, A, а, ａ, á, 𝐚 … for `a`);
 * - `W`: a phrase letter with more, that may stand in a phrase (ligatures, ㎏, ⒦): a line
 *   holding one is always read. A phrase's letters begin at a code point's start (a start of
 *   readsAsAirlock), so such a code point stands in one whole (letters and signs alone: ﬀ) or by
 *   a part from its start up to a phrase's last letter (㎏ ends "airlock" with its k); ½
 *   (skeleton "l⁄2") can do neither;
 * every other code point ends a phrase where it stands.
 *
 * Computed over all of Unicode (about a second), so it is stored (voice-cue-data.ts) and a test
 * recomputes it (voice-cue.test.ts): a change to the look-alike table must regenerate it.
 */
export function voiceCueClasses(
  letters: readonly string[],
  lastLetters: readonly string[],
): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = { E: [], S: [], W: [] };
  for (const l of letters) out[l] = [];
  const alnum = /[\p{L}\p{N}]/u;
  const add = (key: string, cp: number) => {
    const rs = out[key]!;
    const last = rs[rs.length - 1];
    if (last && last[1] === cp - 1) last[1] = cp;
    else rs.push([cp, cp]);
  };
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    const k = [...skeleton(String.fromCodePoint(cp))];
    if (k.length === 0) add('E', cp);
    else if (!k.some((c) => alnum.test(c))) add('S', cp);
    else if (k.length === 1 && letters.includes(k[0]!)) add(k[0]!, cp);
    else if (standsInPhrase(k, letters, lastLetters)) add('W', cp);
  }
  return out;
}

/** Whether a skeleton with a phrase letter and more may stand in a phrase (`W` above). */
function standsInPhrase(k: string[], letters: readonly string[], lastLetters: readonly string[]) {
  const sign = (c: string) => !/[\p{L}\p{N}]/u.test(c);
  const usable = (c: string) => letters.includes(c) || sign(c);
  const run = k.findIndex((c) => !usable(c));
  if (run < 0) return k.some((c) => letters.includes(c));
  return k.slice(0, run).some((c) => lastLetters.includes(c));
}
