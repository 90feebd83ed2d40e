import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Logger } from './log.js';
import { secretText, type SecretFamily } from '../../test-support/secret-arbitraries.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * The logger redacts the line it writes, a JSON text: a registered secret holding `"` or `\`
 * (`hunter2"pass\word`) stands there JSON-escaped, where its raw value is not found. Checked on
 * the file actually written, over generated secrets; the held-out family (any UTF-16, lone
 * surrogates included) and its seed were not tuned on.
 */
function written(family: SecretFamily, seed: number, numRuns: number): void {
  const root = tempDir('airlock-log-redaction-');
  let n = 0;
  fc.assert(
    fc.property(
      secretText(family),
      fc.constantFrom('info', 'error') as fc.Arbitrary<'info' | 'error'>,
      (secret, level) => {
        const dir = join(root, String(n++));
        const log = new Logger({ dir, stderr: false });
        log.registerSecret(secret);
        log[level](`sent ${secret} upstream`, { detail: { text: `it said: ${secret}.` } });
        const line = readFileSync(join(dir, 'airlock.log'), 'utf8').trimEnd();
        expect(line).not.toContain(JSON.stringify(secret).slice(1, -1));
        expect(line).not.toContain(secret);
        const parsed = JSON.parse(line) as { msg: string; detail: { text: string } };
        expect(parsed.msg).toBe('sent [redacted] upstream'); // one line of JSON, the rest kept
        expect(parsed.detail.text).toBe('it said: [redacted].');
      },
    ),
    { seed, numRuns },
  );
}

describe('the log line written holds no registered secret', () => {
  it('quotes, backslashes, "@", unicode (tuning seed)', () => {
    written('tuning', 1, 300);
  });

  it('held out: any UTF-16, another seed', () => {
    written('heldOut', 5_113, 300);
  });

  it('the audit’s case, and a number holding a secret keeps the line JSON', () => {
    const dir = tempDir('airlock-log-redaction-');
    const log = new Logger({ dir, stderr: false });
    log.registerSecret('hunter2"pass\\word');
    log.registerSecret('31415926535');
    log.info('login', { password: 'hunter2"pass\\word', pin: 31415926535 });
    const line = readFileSync(join(dir, 'airlock.log'), 'utf8').trimEnd();
    expect(JSON.parse(line)).toMatchObject({ password: '[redacted]', pin: '[redacted]' });
    // redact() is for plain text (a message cut before logging): the raw value there.
    expect(log.redact('pw hunter2"pass\\word')).toBe('pw [redacted]');
  });
});
