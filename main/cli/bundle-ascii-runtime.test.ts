import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { rolldown } from 'rolldown';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../test-support/cli-process.js';
import { nonAsciiProgram } from '../../test-support/non-ascii-programs.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * scripts/build-cli.mjs prints the CLI bundle with rolldown's `charset: 'ascii'` and comments
 * dropped (issue 34). bundle-ascii.test.ts holds the real bundle equal to a UTF-8 build by
 * comparing parsed programs; this holds the printer itself to the promise at run time, on programs
 * it did not see: each generated module is printed both ways by rolldown (the printer the build
 * uses, with the build's options) and both are run by a plain Node; every value they compute must
 * be equal. `RegExp#source` and `Function#toString` are set apart: they return the text as printed,
 * so an ASCII printing spells them differently (the bundle reads neither of a changed pattern).
 */
type Output = { charset: 'ascii' | 'utf8'; comments: boolean | Record<string, boolean> };
/** The build's own options (a path import: scripts/ is plain JavaScript, outside tsc's program). */
const { BUNDLE_OUTPUT } = (await import(
  pathToFileURL(join(repoRoot, 'scripts', 'bundle-output.mjs')).href
)) as { BUNDLE_OUTPUT: { shipped: Output; reference: Output } };
const OUTPUT = { utf8: BUNDLE_OUTPUT.reference, ascii: BUNDLE_OUTPUT.shipped };

/** Prints a module both ways; returns the ASCII printing. */
async function printed(dir: string, n: number, source: string): Promise<string> {
  const input = join(dir, `p${n}.mjs`);
  writeFileSync(input, source);
  let ascii = '';
  for (const [kind, output] of Object.entries(OUTPUT)) {
    const bundle = await rolldown({ input, logLevel: 'silent' });
    const { output: chunks } = await bundle.generate({ format: 'es', ...output });
    writeFileSync(join(dir, `p${n}.${kind}.mjs`), chunks[0].code);
    ascii = chunks[0].code;
  }
  return ascii;
}

/** Runs each pair in one plain Node (not Vitest's module runner, which would transform them). */
const RUN_PAIRS = `
import { isDeepStrictEqual, inspect } from 'node:util';
const [dir, count] = process.argv.slice(1);
const differ = [];
for (let n = 0; n < Number(count); n++) {
  const a = await import(dir + '/p' + n + '.utf8.mjs');
  const b = await import(dir + '/p' + n + '.ascii.mjs');
  if (!isDeepStrictEqual(a.out, b.out)) differ.push({ n, utf8: inspect(a.out), ascii: inspect(b.out) });
}
process.stdout.write(JSON.stringify(differ));
`;

async function differing(seed: number, runs: number) {
  const dir = tempDir('airlock-ascii-runtime-');
  const programs = fc.sample(nonAsciiProgram, { seed, numRuns: runs });
  let nonAscii = 0;
  for (const [n, source] of programs.entries()) {
    // Only a tagged template's raw text may stay non-ASCII (bundle-ascii.test.ts forbids it in the bundle).
    const rest = (await printed(dir, n, source)).replace(
      /(?:tag|String\.raw)`(?:[^`\\]|\\.)*`/gs,
      '',
    );
    if ([...rest].some((c) => c.charCodeAt(0) > 0x7f)) nonAscii++;
  }
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', RUN_PAIRS, dir, String(programs.length)],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return { differ: JSON.parse(stdout) as unknown[], nonAscii, programs };
}

describe('rolldown printing ASCII: the same values at run time', () => {
  // Seed 2 was used while the generator was written; seed 424242 is held out.
  for (const seed of [2, 424242])
    it(`generated programs, seed ${seed}`, async () => {
      const { differ, nonAscii, programs } = await differing(seed, 300);
      expect(differ).toEqual([]);
      expect(nonAscii).toBe(0);
      // The generator made what it is for: patterns, tagged templates and non-ASCII names.
      expect(programs.filter((p) => p.includes('const r = /')).length).toBeGreaterThan(50);
      expect(programs.filter((p) => /\btag`/.test(p)).length).toBeGreaterThan(50);
    }, 120_000);
});
