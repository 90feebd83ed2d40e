import { describe, expect, it, vi } from 'vitest';
import { KnownParties } from './known-parties.js';
import {
  PROVENANCE_META_KEY,
  ProvenanceService,
  type ProvenanceMetaItem,
} from './provenance-service.js';

/**
 * The link decodings' bounds hold for a whole call, as docs/provenance.md promises (at most 50
 * links and 200 parts a call, 32 texts a part): counted by the decoder's calls and the text it is
 * given and gives back, not timed. A call has up to 1,000 strings (values.ts leavesOf), each of
 * which could otherwise spend the bounds again.
 */

const work = vi.hoisted(() => ({ calls: 0, charsIn: 0, textsOut: 0, charsOut: 0 }));
vi.mock('./decodings.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./decodings.js')>();
  return {
    ...real,
    decodings: (v: string) => {
      const out = real.decodings(v);
      work.calls++;
      work.charsIn += v.length;
      work.textsOut += out.length;
      work.charsOut += out.reduce((n, s) => n + s.length, 0);
      return out;
    },
  };
});

const MAX_PARTS = 200;
const MAX_INPUT = 4096;
const MAX_FORMS = 32;

function service() {
  const known = new KnownParties();
  known.addOwnAccount('me@mycorp.com');
  const svc = new ProvenanceService({ known });
  const item: ProvenanceMetaItem = {
    kind: 'mail',
    label: 'a message from alerts@bank.example',
    ref: 'm1',
    from: ['alerts@bank.example'],
    audience: ['me@mycorp.com'],
    private: true,
    text: 'Your verification code is 482913.',
  };
  svc.observe({
    agent: 'a',
    tool: 'gmail_read',
    sourceKind: 'google',
    sourceLabel: 'Gmail',
    result: {
      content: [{ type: 'text', text: item.text ?? '' }],
      _meta: { [PROVENANCE_META_KEY]: [item] },
    },
  });
  return svc;
}

// Parts that each decode to printable text, and that text again: the costliest to read.
const twice = Buffer.from(Buffer.from('hello there, how are you?').toString('base64')).toString(
  'base64url',
);
const b58 = '2NEpo7TZRRrLZSi2U'.repeat(7).slice(0, 128);
const pct = '%25'.repeat(300);

describe('a worst-case call', () => {
  it('decodes at most 200 parts, however many strings carry links', () => {
    // About 2.5 MB of arguments: under the gateway's 4 MiB request body (settings.ts).
    const link = (i: number) =>
      `https://a${i}.example/${[twice, b58, pct].join('/')}/${Array.from({ length: 40 }, () => twice).join('/')}?${twice}=${twice}#${b58}`;
    const body = Array.from({ length: 999 }, (_, i) => link(i));
    expect(JSON.stringify(body).length).toBeLessThan(4 * 1024 * 1024);
    work.calls = work.charsIn = work.textsOut = work.charsOut = 0;
    service().check('a', {
      tool: 'gmail_send',
      sourceKind: 'google',
      sourceLabel: 'Gmail',
      readOnly: false,
      args: { to: ['desk@collector.example'], subject: 's', body },
    });
    expect(work.calls).toBeGreaterThan(0);
    expect(work.calls).toBeLessThanOrEqual(MAX_PARTS);
    expect(work.charsIn).toBeLessThanOrEqual(MAX_PARTS * MAX_INPUT);
    expect(work.textsOut).toBeLessThanOrEqual(MAX_PARTS * MAX_FORMS);
    // No decoding is longer than what it decodes (each decoder shrinks its input).
    expect(work.charsOut).toBeLessThanOrEqual(MAX_FORMS * work.charsIn);
  });
});
