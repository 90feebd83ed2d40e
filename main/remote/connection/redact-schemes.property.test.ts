import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConnectionRedactor } from './redact.js';
import { credentialHeader, type SecretFamily } from '../../../test-support/secret-arbitraries.js';

/**
 * A configured credential header of any RFC 9110 scheme (`Token ghp_…`, `Basic dXNl…`, Digest's
 * auth-params), not only `Bearer …`: whatever a server echoes of it — the credential without its
 * scheme, and for Basic the decoded `user:pass` and the password — is redacted in the result the
 * agent gets and in a status text. Checked on the text that leaves (the result's JSON, the
 * status string), over generated headers; the held-out family is any UTF-16 and was not tuned on.
 */
const MIN = 6; // the redactor's own minimum (platform/redactor.ts): shorter values are kept

function leaks(family: SecretFamily, seed: number, numRuns: number): void {
  fc.assert(
    fc.property(credentialHeader(family), ({ value, echoes }) => {
      const r = new ConnectionRedactor();
      r.follow({ headers: { 'X-Auth': value } });
      for (const echo of echoes.filter((e) => e.length >= MIN)) {
        const sent = { content: [{ type: 'text', text: `echo ${echo} end` }], data: { echo } };
        const out = JSON.stringify(r.result(sent));
        expect(out).not.toContain(JSON.stringify(echo).slice(1, -1));
        expect(out).toContain('echo [redacted] end'); // the rest of the text is left alone
        expect(r.text(`status: ${echo}.`)).toBe('status: [redacted].');
      }
    }),
    { seed, numRuns },
  );
}

describe('a credential header is redacted in every form a server may echo it', () => {
  it('generated schemes, token68, auth-params and Basic (tuning seed)', () => {
    leaks('tuning', 1, 600);
  });

  it('held out: any UTF-16 in passwords and params, another seed', () => {
    leaks('heldOut', 9_907, 600);
  });

  it('the forms the audit showed', () => {
    const r = new ConnectionRedactor();
    r.follow({
      headers: {
        a: 'Token ghp_abcdefghijklmnop',
        b: `Basic ${Buffer.from('user:hunter2"pass\\word').toString('base64')}`,
        c: 'Digest username="bob", response="6629fae49393a05397450978507c4ef1"',
      },
    });
    const out = r.text(
      'ghp_abcdefghijklmnop user:hunter2"pass\\word hunter2"pass\\word ' +
        `${Buffer.from('user:hunter2"pass\\word').toString('base64')} ` +
        'username="bob", response="6629fae49393a05397450978507c4ef1"',
    );
    expect(out).toBe('[redacted] [redacted] [redacted] [redacted] [redacted]');
  });

  it('a header of plain words is not cut into words to redact; a short password is kept', () => {
    const r = new ConnectionRedactor();
    r.follow({
      headers: {
        'X-Client': 'My App production',
        // Two words fit the grammar (scheme + token68): the second is still not a credential.
        'X-Env': 'eu production',
        'X-Basic': `Basic ${Buffer.from('admin:abc').toString('base64')}`,
      },
    });
    // The decoded pair is long enough to be one; its 3-letter password is not.
    expect(r.text('production on My App; admin:abc abc')).toBe(
      'production on My App; [redacted] abc',
    );
    expect(r.text('My App production')).toBe('[redacted]');
    expect(r.text('eu production')).toBe('[redacted]');
    // A credential-like token after a scheme-like word is split out (credential-forms.ts).
    r.follow({ headers: { 'X-Key': 'Key ab12cd34ef' } });
    expect(r.text('echo: ab12cd34ef')).toBe('echo: [redacted]');
  });
});
