// markUntrusted, copies of main/tools/untrusted.ts side by side (review of h-relayed):
//   git show main:main/tools/untrusted.ts > /tmp/main-untrusted.ts
//   node scripts/experiments/bench-mark-untrusted.mjs /tmp/main-untrusted.ts main/tools/untrusted.ts
// Each file is transpiled alone (it imports types only). The copies run interleaved, their order
// flipped every round, after a warm-up; µs per call, median and min over the rounds.
// PARSE=1 parses each result from its JSON first, as an upstream's answer is (cache-hot blocks).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const files = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'bench-untrusted-'));
const mods = await Promise.all(
  files.map((f, i) => {
    const out = join(dir, `v${i}.mjs`);
    const opts = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
    writeFileSync(
      out,
      ts.transpileModule(readFileSync(f, 'utf8'), { compilerOptions: opts }).outputText,
    );
    return import(pathToFileURL(out).href);
  }),
);
const shapes = {
  text1: () => ({ content: [{ type: 'text', text: 'x'.repeat(200) }] }),
  text3meta: () => ({
    content: [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    ],
    structuredContent: { a: 1, b: [1, 2] },
    _meta: { 'com.example/x': 1 },
  }),
  blocks20: () => ({
    content: Array.from({ length: 20 }, (_, i) => ({ type: 'text', text: `line ${i}` })),
  }),
};
const N = 5000,
  WARM = 20,
  ROUNDS = 100,
  PARSE = process.env.PARSE === '1';
let sink = 0;
const inputs = Object.fromEntries(
  Object.entries(shapes).map(([k, make]) => [k, Array.from({ length: N }, make)]),
);
const texts = Object.fromEntries(
  Object.entries(inputs).map(([k, xs]) => [k, xs.map((x) => JSON.stringify(x))]),
);
const run = (f, name) => {
  const xs = inputs[name],
    ss = texts[name];
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) sink += f(PARSE ? JSON.parse(ss[i]) : xs[i], 's').content.length;
  return Number(process.hrtime.bigint() - t0) / N / 1000;
};
for (let r = 0; r < WARM; r++)
  for (const k of Object.keys(shapes)) for (const m of mods) run(m.markUntrusted, k);
for (const name of Object.keys(shapes)) {
  const times = mods.map(() => []);
  for (let r = 0; r < ROUNDS; r++)
    for (let v = 0; v < mods.length; v++) {
      const i = r % 2 === 0 ? v : mods.length - 1 - v;
      times[i].push(run(mods[i].markUntrusted, name));
    }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const cells = files.map(
    (f, i) => `${f}: med ${med(times[i]).toFixed(3)} min ${Math.min(...times[i]).toFixed(3)}`,
  );
  console.log(name.padEnd(10), cells.join(' | '));
}
if (sink === 42) console.log();
