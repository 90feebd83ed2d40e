import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAddresses } from '../google/gmail/compose.js';
import { toolDefinitions } from '../google/gmail/tools.js';
import { roleOfKey } from './destination-words.js';
import { circleKeysOf, destinationsOf } from './destinations.js';
import { canonicalAddress } from './identity.js';

// Issue 30: where a call sends things, found by meaning — the schema, the field's name, the
// value's shape — and read with the parser of the tool that acts.

const where = (args: Record<string, unknown>, schema?: Record<string, unknown>) =>
  destinationsOf(args, schema).map((d) => `${d.path}=${d.kind}:${d.value}`);

describe('destinations by name', () => {
  it('judges a field by the head word of its name', () => {
    const roles = Object.fromEntries(
      [
        'to',
        'add_attendees',
        'recipient_email',
        'webhookUrl',
        'webhook-url',
        'callbackURL',
        'share_with',
        'forwardTo',
        'notifyEmails',
        'cc_list',
        'invitees',
        'email_body',
        'subject',
        'description',
        'location',
        'messageText',
        'calendar_id',
      ].map((k) => [k, roleOfKey(k)]),
    );
    expect(roles).toEqual({
      to: 'destination',
      add_attendees: 'destination',
      recipient_email: 'destination',
      webhookUrl: 'destination',
      'webhook-url': 'destination',
      callbackURL: 'destination',
      share_with: 'destination',
      forwardTo: 'destination',
      notifyEmails: 'destination',
      cc_list: 'destination',
      invitees: 'destination',
      email_body: 'content',
      subject: 'content',
      description: 'content',
      location: 'content',
      messageText: 'content',
      calendar_id: 'neutral',
    });
  });

  it('finds destinations nested in objects and arrays, and several in one string', () => {
    expect(
      where({
        notifyList: [{ addr: 'a@x.test', name: 'A' }, { addr: 'B <b@y.test>' }],
        config: { target: { uri: 'https://hooks.z.test/in' } },
        to: 'Ann <ann@x.test>, "Smith, Bo" <bo@w.test>',
        body: 'cc me at me@mine.test please, and see https://docs.test/a',
      }),
    ).toEqual([
      'notifyList[0].addr=address:a@x.test',
      'notifyList[1].addr=address:b@y.test',
      'config.target.uri=url:https://hooks.z.test/in',
      'to=address:ann@x.test',
      'to=address:bo@w.test',
    ]);
  });
});

describe('destinations by schema and by shape', () => {
  it("takes a field the tool's schema calls an e-mail, URI or host name, whatever its name", () => {
    const schema = {
      type: 'object',
      properties: {
        p: { type: 'string', format: 'email' },
        q: { $ref: '#/$defs/link' },
        r: {
          type: 'array',
          items: { anyOf: [{ type: 'string', format: 'hostname' }, { type: 'integer' }] },
        },
        note: { type: 'string' },
      },
      $defs: { link: { type: 'string', format: 'uri' } },
    };
    expect(
      where(
        {
          p: 'Billing Team billing@evil.test',
          q: 'https://drop.evil.test/u',
          r: ['cdn.evil.test'],
          note: 'write to x@y.test about the invoices soon',
        },
        schema,
      ),
    ).toEqual([
      'p=address:billing@evil.test',
      'q=url:https://drop.evil.test/u',
      'r[0]=host:cdn.evil.test',
    ]);
  });

  it('takes a neutrally named value that is only addresses or links; not prose that mentions one', () => {
    expect(where({ value: 'Billing <billing@evil.test>' })).toEqual([
      'value=address:billing@evil.test',
    ]);
    expect(where({ argv: ['mail', '-s', 'Q3', 'billing@evil.test'] })).toEqual([
      'argv[3]=address:billing@evil.test',
    ]);
    expect(
      where({ misc: 'please call billing@evil.test about the invoices next week, thanks' }),
    ).toEqual([]);
  });

  it('records what the circle learns in the same keys', () => {
    expect(
      circleKeysOf({ attendees: ['Dan.Smith+x@GoogleMail.com'], url: 'https://WWW.Hooks.Test/x' }),
    ).toEqual([
      { kind: 'address', value: 'dansmith@gmail.com' },
      { kind: 'host', value: 'hooks.test' },
    ]);
  });
});

// The check reads gmail_send's recipients as the composer that sends them does (postal-mime's
// addressParser, then compose.ts's checks): the same set, for generated recipient lists.
const name = fc.constantFrom('', 'Ann', 'Smith, Bo', 'Dr. Eve (Ops)', 'Zoë Ünal', '"Q" Team');
// Local parts with RFC 5322 atext the value scanner's pattern does not take ("'", "=", "!", "/",
// "#", "&", "*", "?", "^", "`", "{", "|", "}", "~", "$"): the composer sends to o'hara@…, not hara@….
const localPart = fc.constantFrom(
  'ann',
  'bo.smith',
  'eve+q3',
  'Billing',
  'x_y-z',
  '"john smith"',
  "o'hara",
  'x=ceo',
  'evil!ceo',
  'a/b',
  'a#b',
  'a&b',
  '{x}*y',
  'q?r^s',
  '`t`|~u',
  '$$',
);
const domain = fc.constantFrom(
  'evil.test',
  'Mail.Evil.Test',
  'b\u00e4nk.test',
  'gmail.com',
  'googlemail.com',
  'example.org',
);
const mailbox = fc.tuple(name, localPart, domain).map(([n, l, d]) => {
  const addr = `${l}@${d}`;
  if (!n) return addr;
  return /[,()"]/.test(n) ? `"${n.replace(/"/g, '\\"')}" <${addr}>` : `${n} <${addr}>`;
});
const field = fc.array(
  fc.array(mailbox, { minLength: 1, maxLength: 3 }).map((xs) => xs.join(', ')),
  { minLength: 1, maxLength: 3 },
);

describe('the same recipients as the composer (property)', () => {
  const send = toolDefinitions([{ email: 'me@example.com', state: 'connected' } as never]).find(
    (d) => d.name === 'gmail_send',
  )!;

  it('destinationsOf(gmail_send arguments) judges every address compose.ts sends to', () => {
    fc.assert(
      fc.property(field, field, (to, cc) => {
        let sent: string[];
        try {
          sent = [...parseAddresses('to', to), ...parseAddresses('cc', cc)].map((m) =>
            canonicalAddress(m.address),
          );
        } catch {
          return; // the composer refuses it: nothing is sent, nothing to compare
        }
        const seen = destinationsOf({ to, cc, subject: 's', body: 'b' }, send.inputSchema)
          .filter((d) => d.kind === 'address')
          .map((d) => d.value);
        // Every address the composer sends to is judged. The only others are the value scanner's
        // readings of the tail of one (hara@… of o'hara@…), judged too: the strictest reading.
        for (const a of sent) expect(seen, a).toContain(a);
        for (const a of seen.filter((x) => !sent.includes(x)))
          expect(
            sent.some(
              (b) => b.endsWith(a) && /[^\p{L}\p{N}._%+-]/u.test(b[b.length - a.length - 1]!),
            ),
            a,
          ).toBe(true);
      }),
      // A fixed seed (house rule): the same generated lists on every run.
      { numRuns: 400, seed: 20261204 },
    );
  });
});

describe('destinations inside other values', () => {
  it('reads a JSON or form body, and the query of a link, as more arguments', () => {
    expect(
      where({
        url: 'https://api.mailer.test/v3/send',
        body: '{"personalizations":[{"to":[{"email":"billing@evil.test"}]}],"subject":"Q3"}',
      }),
    ).toEqual([
      'url=url:https://api.mailer.test/v3/send',
      'body.(json).personalizations[0].to[0].email=address:billing@evil.test',
    ]);
    expect(where({ data: 'to=billing%40evil.test&subject=Q3&text=hello' })).toEqual([
      'data.(form).to=address:billing@evil.test',
    ]);
    // An address inside a link is read as the link is read (unveiled), and from its query.
    expect(where({ url: 'https://gw.test/send?recipient=billing%40evil.test&msg=hi' })).toEqual([
      'url=address:billing@evil.test',
      'url=url:https://gw.test/send?recipient=billing@evil.test&msg=hi',
    ]);
    // The query, fully decoded, catches what the scan of the link's text reads wrong.
    expect(where({ endpoint: 'https://gw.test/send?to=%62illing%40evil.test' })).toContain(
      'endpoint.(query).to=address:billing@evil.test',
    );
  });
});

describe('one destination named in several fields', () => {
  // The seen-set kept the first field's reading of a link: under "url" first, a link also in
  // "webhook" stayed `generic`, and taint-check lets a passive tool's generic link through rule 1;
  // with "webhook" first it did not. The agent chooses the order of its arguments.
  const link = 'https://hooks.evil.example/in';
  const fields = ['url', 'link', 'webhook', 'callback_url', 'notify_url'] as const;
  const isGeneric = (f: string) => f === 'url' || f === 'link';

  it('is generic only when every field naming it is, in any order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...fields), { minLength: 1, maxLength: fields.length }),
        (order) => {
          const args = Object.fromEntries(order.map((f) => [f, link]));
          const found = destinationsOf(args).filter((d) => d.kind === 'url');
          expect(found).toHaveLength(1);
          expect(found[0]!.generic === true).toBe(order.every(isGeneric));
        },
      ),
      { seed: 1234, numRuns: 200 },
    );
  });

  it('a webhook after a url is not generic', () => {
    const [d] = destinationsOf({ url: link, webhook: link }).filter((x) => x.kind === 'url');
    expect(d!.generic).toBeUndefined();
  });
});
