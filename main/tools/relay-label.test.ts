import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopback, labelRelayed, relayLabel, relayedLinkProblem } from './relay-label.js';

/**
 * Issue 27, item 3, on generated inputs: whatever text a server sends, what the agent's app
 * shows starts with Airlock's label for that server, and no start of the server's text can read
 * as Airlock speaking.
 */
const LABEL = relayLabel('srv');
const elicit = (message: string) =>
  labelRelayed({ method: 'elicitation/create', server: 'srv', params: { mode: 'form', message } });
const messageOf = (l: ReturnType<typeof elicit>) =>
  'params' in l ? String(l.params.message) : `refused: ${l.refusal}`;

/** Characters that hide or reorder text, blanks and line breaks: what a label could be pushed away with. */
const noise = fc
  .array(
    fc.constantFrom(
      '\u202e',
      '\u202d',
      '\u2066',
      '\u200b',
      '\u200f',
      '\ufeff',
      '\u2060',
      '\n',
      '\r\n',
      ' ',
      '\t',
      '\u3164',
      '\u0000',
      '\u001b',
    ),
    { maxLength: 12 },
  )
  .map((a) => a.join(''));

/** "airlock" in any case, with letters other scripts draw alike, NFKC-foldable forms and hidden joins. */
const airlockLike = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.boolean(), fc.boolean()), {
    minLength: 7,
    maxLength: 7,
  })
  .map((picks) =>
    [...'airlock']
      .map((c, i) => {
        const [variant, upper, zw] = picks[i]!;
        const alike: Record<string, string[]> = {
          a: ['а', 'ɑ', 'ａ'],
          i: ['і', 'ı', 'ｉ'],
          r: ['г', 'ｒ'],
          l: ['ӏ', 'ｌ'],
          o: ['о', 'ο', 'ｏ'],
          c: ['с', 'ϲ', 'ｃ'],
          k: ['к', 'κ', 'ｋ'],
        };
        const options = alike[c]!;
        const ch = variant < options.length ? options[variant]! : c;
        return (upper ? ch.toUpperCase() : ch) + (zw ? '\u200b' : '');
      })
      .join(''),
  );

describe('the label', () => {
  it('every relayed message starts with the label, the server’s text after it starts visibly', () => {
    fc.assert(
      fc.property(noise, fc.string({ unit: 'grapheme', maxLength: 60 }), (lead, body) => {
        const shown = messageOf(elicit(lead + body));
        expect(shown.startsWith(LABEL)).toBe(true);
        const after = shown.slice(LABEL.length);
        // What follows the label is a space and visible text, never something that hides or reorders.
        if (after !== '') {
          expect(after[0]).toBe(' ');
          expect(after.slice(1)).not.toMatch(/^[\s\p{Cc}\p{Cf}\u3164]/u);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a start that reads as Airlock — any case, look-alike letters, punctuation, hidden joins — is marked as the server’s words', () => {
    fc.assert(
      fc.property(
        noise,
        fc.constantFrom('', '[', '**', '⚠ ', '> ', '(', '🔒 ', '— '),
        airlockLike,
        fc.constantFrom(':', ' says', ' —', ']', ' security notice:', ''),
        fc.string({ maxLength: 30 }),
        (lead, punct, name, joint, rest) => {
          const shown = messageOf(elicit(`${lead}${punct}${name}${joint} ${rest}`));
          expect(shown.startsWith(`${LABEL} The server writes: “`), JSON.stringify(shown)).toBe(
            true,
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('a forged label of ours is marked too; plain text is left as it is', () => {
    expect(messageOf(elicit(`${relayLabel('trusted')} hi`))).toBe(
      `${LABEL} The server writes: “${relayLabel('trusted')} hi”`,
    );
    expect(messageOf(elicit('Which repository should I use?'))).toBe(
      `${LABEL} Which repository should I use?`,
    );
    expect(messageOf(elicit('Air quality lock-in?'))).toBe(`${LABEL} Air quality lock-in?`);
  });
});

describe('links', () => {
  const self = { origin: () => 'http://127.0.0.1:47821' };
  const loopbackHosts = [
    '127.0.0.1',
    '127.1',
    '127.255.0.9',
    '0x7f.1',
    '2130706433',
    'localhost',
    'LOCALHOST.',
    'a.b.localhost',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
    '[::ffff:127.0.0.1]',
    '0.0.0.0',
  ];

  it('every loopback spelling on Airlock’s port is refused; on another port it is named; elsewhere, left alone', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...loopbackHosts),
        fc.constantFrom('', '/', '/x?y=1', '/#/other'),
        (host, path) => {
          expect(relayedLinkProblem(`http://${host}:47821${path}`, self).refusal).toMatch(
            /Airlock's own address/,
          );
          expect(relayedLinkProblem(`http://${host}:9${path}`, self)).toEqual({
            note: expect.stringMatching(/on this computer: a program of the server's, not Airlock/),
          });
        },
      ),
    );
    for (const host of loopbackHosts)
      expect(isLoopback(new URL(`http://${host}/`).hostname)).toBe(true);
    for (const url of [
      'https://example.com/auth',
      'https://127.0.0.1.example.com/',
      'http://10.0.0.1/',
    ])
      expect(relayedLinkProblem(url, self)).toEqual({});
  });

  it("links to Airlock's pages, and links that are not http(s), are refused wherever they point", () => {
    for (const url of [
      'https://example.com/#/approve/abc',
      'https://example.com/#token=alc_x',
      'http://localhost:1/#/accounts',
      'airlock://approval/abc',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
    ])
      expect(relayedLinkProblem(url, self).refusal, url).toBeDefined();
  });
});
