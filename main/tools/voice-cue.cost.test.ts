import { describe, expect, it } from 'vitest';

/**
 * What serverContent costs per 10 KB text in which no line speaks (docs/performance.md, "The
 * voice cue"; issue 34: every relayed result passes here). Not a test of the suite: run on
 * purpose, `VOICE_CUE_COST=1 npx vitest run main/tools/voice-cue.cost.test.ts`, on a quiet core.
 * `VOICE_CUE_OLD=<module>` measures another copy of relay-label.ts beside this one (a previous
 * revision written next to it, e.g. `git show REV:main/tools/relay-label.ts >
 * main/tools/relay-label-old.ts`, then `VOICE_CUE_OLD=./relay-label-old.js`). Each figure is the
 * fastest of 4,000 calls, in µs.
 */
const RUN = process.env.VOICE_CUE_COST === '1';
if (!RUN)
  console.log(
    'voice-cue.cost.test: skipped, a measurement rather than a check (VOICE_CUE_COST=1 runs it, on a quiet core)',
  );
const TIMEOUT = 600_000;
const KB10 = (unit: string) => unit.repeat(Math.ceil(10_240 / unit.length)).slice(0, 10_240);

const TEXTS: Record<string, string> = {
  'ASCII prose': KB10('The meeting moved to Thursday; the draft is in the shared folder.\n'),
  'Latin-1 prose': KB10('La réunion est déplacée à jeudi; le brouillon est prêt. Ça va.\n'),
  'French with ’': KB10('L’équipe a reçu le brouillon ; c’est prêt à être envoyé.\n'),
  Russian: KB10('Встреча перенесена на четверг; черновик в общей папке.\n'),
  Chinese: KB10('会议改到星期四，草稿在共享文件夹里。\n'),
  'JSON, 450 accented strings': JSON.stringify(
    Array.from({ length: 450 }, (_, i) => ({ note: `réunion numéro ${i}` })),
  ),
  'JSON, the same as \\u escapes': JSON.stringify(
    Array.from({ length: 450 }, (_, i) => ({ note: `réunion numéro ${i}` })),
  ).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  // Review of session h-voice: a text with `&` is also read with its HTML references decoded.
  'HTML-escaped prose, no mention': KB10(
    'Q&amp;A: see &lt;b&gt;the FAQ&lt;/b&gt; &amp; the forum &#8212; ok.\n',
  ),
  // Lines the cue finds and the reading passes: a mention of Airlock in prose on every line.
  'ASCII prose mentioning Airlock on every line': KB10(
    'Done. We routed it through Airlock, then the draft (v2) was sent.\n',
  ),
  // Review h-rev-voice: a hostile line of bracket runs, each bracket a place of the mid-line
  // reading (170–190 ms per 10 KB before it passed over brackets inside a lead-in read).
  'runs of [ before prose that mentions Airlock': KB10(`${'['.repeat(100)}ab airlock `),
  'runs of 【 before prose that mentions Airlock': KB10(`${'【'.repeat(100)}ab airlock `),
};

function fastest(f: (t: string) => string, t: string): number {
  let best = Infinity;
  for (let i = 0; i < 4000; i++) {
    const a = process.hrtime.bigint();
    const out = f(t);
    const b = process.hrtime.bigint();
    if (out !== t) throw new Error('a line spoke');
    best = Math.min(best, Number(b - a) / 1000);
  }
  return best;
}

describe.runIf(RUN)('the voice cue: cost per 10 KB text in which no line speaks', () => {
  it('serverContent, fastest of 4,000 calls', { timeout: TIMEOUT }, async () => {
    const now = (await import('./relay-label.js')).serverContent;
    const oldPath = process.env.VOICE_CUE_OLD;
    const old = oldPath
      ? ((await import(oldPath)) as { serverContent: (t: string) => string }).serverContent
      : undefined;
    const rows: string[] = [];
    for (const [name, t] of Object.entries(TEXTS)) {
      // Alternated, each warmed first, so neither runs on a colder process.
      const n = [fastest(now, t), fastest(now, t)];
      const o = old ? [fastest(old, t), fastest(old, t)] : [];
      rows.push(
        `${name}: ${Math.min(...n).toFixed(1)} µs` +
          (old ? ` (before: ${Math.min(...o).toFixed(1)} µs)` : ''),
      );
    }
    console.log(rows.join('\n'));
    expect(rows).toHaveLength(Object.keys(TEXTS).length);
  });
});
