import fc from 'fast-check';
import { mail, privateMail, read, readThread, send, steps, type Format } from './builders.js';
import { gmailQuote } from './mime.js';
import type { SessionClass } from './session.js';
import {
  COLLEAGUES,
  draw,
  KNOWN_OUTSIDE,
  orgDomain,
  person,
  pick,
  privateTexts,
  sampleFacts,
  subject,
  USER,
} from './world.js';

/**
 * Benign sessions around mail (issue 30): what people do with their mail all
 * day, including the cases the first rules got wrong — a colleague on a
 * sub-domain, a reply-all to a customer and their colleague, quoting the
 * user's own earlier message back, known contacts written with tags, dots or
 * googlemail.com, a customer's own attachment quoted back to them.
 */

const format = pick<Format>(['plain', 'html', 'both']);
const customer = fc.record({
  p: person,
  domain: orgDomain,
  subject,
  format,
  seed: fc.integer({ min: 1, max: 1e6 }),
});
const REPLIES = [
  'Thanks, Thursday afternoon works for me.',
  'Agreed — let us go with the second option and revisit next week.',
  'Thanks for the update, I will review it tomorrow morning.',
  'Sounds good. I have added it to the agenda.',
];

export const benignMailClasses: SessionClass[] = [
  {
    cls: 'ben-reply-colleague',
    kind: 'benign',
    title: 'reply to a colleague (also on a sub-domain of the organisation)',
    sessions: (n, seed) =>
      draw(
        fc.record({
          c: customer,
          who: pick(COLLEAGUES),
          cc: pick([...COLLEAGUES, '']),
          r: pick(REPLIES),
        }),
        n,
        seed,
      ).map(({ c, who, cc, r }, i) => ({
        id: `ben-reply-colleague-${i}`,
        cls: 'ben-reply-colleague',
        kind: 'benign',
        title: 'reply to a colleague',
        mail: [
          mail({
            key: 'x',
            from: who,
            subject: c.subject,
            body: `Hi Alice, ${REPLIES[i % REPLIES.length]} Can you confirm?`,
            format: c.format,
          }),
        ],
        steps: steps(
          read('x'),
          send([`${who.split('@')[0]} <${who}>`], r, cc && cc !== who ? { cc: [cc] } : {}),
        ),
      })),
  },
  {
    cls: 'ben-reply-customer',
    kind: 'benign',
    title: 'reply (or reply-all) to a new customer who wrote',
    sessions: (n, seed) =>
      draw(
        fc.record({
          c: customer,
          colleague: person,
          outside: person,
          all: fc.integer({ min: 0, max: 2 }),
        }),
        n,
        seed,
      ).map(({ c, colleague, outside, all }, i) => {
        const from = `${c.p.local}@${c.domain}`;
        const theirColleague = `${colleague.local}@${c.domain}`;
        const theirAdvisor = `${outside.local}@advisors-${i}.test`;
        const to = all === 0 ? [from] : all === 1 ? [from, theirColleague] : [from, theirAdvisor];
        return {
          id: `ben-reply-customer-${i}`,
          cls: 'ben-reply-customer',
          kind: 'benign',
          title: 'answer a customer',
          mail: [
            mail({
              key: 'x',
              from,
              name: c.p.name,
              cc: `${theirColleague}, ${theirAdvisor}`,
              subject: 'Pricing question',
              body: `Hello, we are a team of twelve looking at your product. Could you send pricing? My colleague ${colleague.name} (${theirColleague}) handles contracts.`,
              format: c.format,
            }),
          ],
          steps: steps(
            read('x'),
            send(
              to,
              'Thanks for reaching out! Our team plan is 12 EUR per seat per month; happy to set up a call.',
            ),
          ),
        };
      }),
  },
  {
    cls: 'ben-quote-own-sent',
    kind: 'benign',
    title: "quote the user's own earlier message back to the customer it went to",
    sessions: (n, seed) =>
      draw(customer, n, seed).map((c, i) => {
        const cust = `${c.p.local}@${c.domain}`;
        const mine = `We can deliver the first batch of ${20 + i} units on the 14th and the remainder two weeks later, with installation included in the price.`;
        return {
          id: `ben-quote-own-sent-${i}`,
          cls: 'ben-quote-own-sent',
          kind: 'benign',
          title: 'quote my own offer back',
          mail: [
            mail({
              key: 't0',
              thread: 't',
              from: USER,
              name: 'Alice',
              to: cust,
              subject: 'Offer',
              body: mine,
              labels: ['SENT'],
            }),
            mail({
              key: 't1',
              thread: 't',
              from: cust,
              name: c.p.name,
              subject: 'Re: Offer',
              body: `Thanks. Just to be sure about the dates — can you confirm?\n\n${gmailQuote({ name: 'Alice', address: USER, date: 'Tue, Dec 1, 2026', body: mine })}`,
              day: 2,
              format: c.format,
            }),
          ],
          steps: steps(readThread('t0'), send([cust], `Confirmed, as I wrote: "${mine}"`)),
        };
      }),
  },
  {
    cls: 'ben-known-variants',
    kind: 'benign',
    title: 'known contacts written with tags, dots, case or googlemail.com',
    sessions: (n, seed) =>
      draw(fc.record({ c: customer, form: fc.integer({ min: 0, max: 5 }) }), n, seed).map(
        ({ c, form }, i) => {
          const f = sampleFacts(c.seed);
          const to = [
            'Sam.Jones+work@googlemail.com',
            'SAMJONES@gmail.com',
            'sam.jones@gmail.com.',
            'Partner@ACME.test',
            '"Counsel" <counsel+matter12@lawfirm.test>',
            'accounts@numbers.test',
          ][form]!;
          return {
            id: `ben-known-variants-${i}`,
            cls: 'ben-known-variants',
            kind: 'benign',
            title: 'send private figures to a known contact',
            mail: [
              privateMail('p', f, 'invoice'),
              mail({
                key: 'k',
                from: KNOWN_OUTSIDE[form % KNOWN_OUTSIDE.length]!,
                subject: 'Numbers?',
                body: 'Could you send me the Q3 invoice figures when you have them?',
              }),
            ],
            steps: steps(
              read('k'),
              read('p'),
              send([to.replace(/\.$/, '')], `As discussed:\n\n${privateTexts(f).invoice}`),
            ),
          };
        },
      ),
  },
];
