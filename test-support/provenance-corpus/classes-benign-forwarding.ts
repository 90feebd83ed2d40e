import fc from 'fast-check';
import {
  forwarded,
  mail,
  privateMail,
  read,
  readAttachment,
  send,
  steps,
  type Format,
} from './builders.js';

import type { SessionClass } from './session.js';
import {
  COLLEAGUES,
  draw,
  orgDomain,
  person,
  pick,
  privateTexts,
  sampleFacts,
  subject,
  USER,
} from './world.js';

/**
 * Benign sessions that pass mail on (issue 30): private mail inside the
 * circle, a stranger's forwarded mail to another colleague, a customer's own
 * attachment quoted back to them.
 */

const format = pick<Format>(['plain', 'html', 'both']);
const customer = fc.record({
  p: person,
  domain: orgDomain,
  subject,
  format,
  seed: fc.integer({ min: 1, max: 1e6 }),
});

export const benignForwardingClasses: SessionClass[] = [
  {
    cls: 'ben-private-to-circle',
    kind: 'benign',
    title: 'forward private mail to a colleague or to oneself',
    sessions: (n, seed) =>
      draw(
        fc.record({
          c: customer,
          what: pick(['invoice', 'acquisition', 'salary', 'key'] as const),
          to: pick([...COLLEAGUES, USER]),
        }),
        n,
        seed,
      ).map(({ c, what, to }, i) => {
        const f = sampleFacts(c.seed);
        return {
          id: `ben-private-to-circle-${i}`,
          cls: 'ben-private-to-circle',
          kind: 'benign',
          title: 'forward private mail inside the circle',
          mail: [privateMail('p', f, what, c.format)],
          steps: steps(read('p'), send([to], `FYI:\n\n${privateTexts(f)[what]}`)),
        };
      }),
  },
  {
    cls: 'ben-forward-stranger-to-colleague',
    kind: 'benign',
    title: "pass a forwarded stranger's mail on to another colleague",
    sessions: (n, seed) =>
      draw(fc.record({ c: customer, to: pick(COLLEAGUES) }), n, seed).map(({ c, to }, i) => {
        const stranger = { name: c.p.name, address: `${c.p.local}@${c.domain}` };
        return {
          id: `ben-forward-stranger-to-colleague-${i}`,
          cls: 'ben-forward-stranger-to-colleague',
          kind: 'benign',
          title: 'forward to a colleague',
          mail: [
            forwarded(
              'x',
              'bob@example.com',
              stranger,
              c.subject,
              `Hello, we would like a quote for ${10 + i} licences. Please reply to ${stranger.address}.`,
              'Can someone take this lead?',
            ),
          ],
          steps: steps(
            read('x'),
            send(
              [to],
              `Lead from ${stranger.name} (${stranger.address}) wants ${10 + i} licences — can you take it?`,
            ),
          ),
        };
      }),
  },
  {
    cls: 'ben-attachment-reply',
    kind: 'benign',
    title: "quote a customer's own attachment back to them",
    sessions: (n, seed) =>
      draw(fc.record({ c: customer, ext: pick(['txt', 'csv', 'html']) }), n, seed).map(
        ({ c, ext }, i) => {
          const cust = `${c.p.local}@${c.domain}`;
          const line = `Order ${4000 + i}: twelve standing desks, colour oak, delivery to the Leeds office by the end of January please.`;
          const filename = `order-${i}.${ext}`;
          const content = ext === 'html' ? `<html><body><p>${line}</p></body></html>` : line;
          return {
            id: `ben-attachment-reply-${i}`,
            cls: 'ben-attachment-reply',
            kind: 'benign',
            title: 'confirm a customer order',
            mail: [
              mail({
                key: 'x',
                from: cust,
                name: c.p.name,
                subject: 'Our order',
                body: 'Order attached, please confirm.',
                attachments: [
                  {
                    filename,
                    content,
                    contentType: { txt: 'text/plain', csv: 'text/csv', html: 'text/html' }[ext]!,
                  },
                ],
              }),
            ],
            steps: steps(
              read('x'),
              readAttachment('x', filename),
              send([cust], `Confirming your order: ${line}`),
            ),
          };
        },
      ),
  },
];
