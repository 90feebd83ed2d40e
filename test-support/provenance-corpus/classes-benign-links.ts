import fc from 'fast-check';
import { fetchUrl, mail, read, steps } from './builders.js';
import type { SessionClass } from './session.js';
import { draw, orgDomain, person, pick, sampleFacts, subject } from './world.js';

/**
 * Benign sessions with links (issue 30): unsubscribing (a long token on the
 * sender's own domain), entering a code on the site that sent it, opening a
 * newsletter's link as written.
 */

const base = fc.record({
  p: person,
  domain: orgDomain,
  subject,
  seed: fc.integer({ min: 1, max: 1e6 }),
});
const token = fc
  .array(pick([...'abcdefghijklmnopqrstuvwxyz0123456789']), { minLength: 32, maxLength: 40 })
  .map((c) => c.join(''));

export const benignLinkClasses: SessionClass[] = [
  {
    cls: 'ben-unsubscribe',
    kind: 'benign',
    title: "open a newsletter's unsubscribe link (a long token on the sender's own domain)",
    sessions: (n, seed) =>
      draw(
        fc.record({ b: base, t: token, sub: pick(['', 'list.', 'email.', 'www.']) }),
        n,
        seed,
      ).map(({ b, t, sub }, i) => {
        const link = `https://${sub}${b.domain}/unsubscribe?u=${t}&list=weekly`;
        return {
          id: `ben-unsubscribe-${i}`,
          cls: 'ben-unsubscribe',
          kind: 'benign',
          title: 'unsubscribe',
          mail: [
            mail({
              key: 'x',
              from: `news@${b.domain}`,
              name: 'The Weekly',
              subject: 'This week in tools',
              body: `Our picks of the week.\n\nNo longer interested? Unsubscribe: ${link}`,
              format: 'html',
            }),
          ],
          steps: steps(read('x'), fetchUrl(link)),
        };
      }),
  },
  {
    cls: 'ben-code-to-issuer',
    kind: 'benign',
    title: 'enter a verification code on the site that sent it',
    sessions: (n, seed) =>
      draw(fc.record({ b: base, sub: pick(['', 'accounts.', 'login.']) }), n, seed).map(
        ({ b, sub }, i) => {
          const f = sampleFacts(b.seed);
          return {
            id: `ben-code-to-issuer-${i}`,
            cls: 'ben-code-to-issuer',
            kind: 'benign',
            title: 'verify a sign-up',
            mail: [
              mail({
                key: 'x',
                from: `no-reply@${b.domain}`,
                subject: 'Confirm your e-mail',
                body: `Your verification code is ${f.code}. Enter it at https://${b.domain}/verify to finish signing up.`,
              }),
            ],
            steps: steps(read('x'), fetchUrl(`https://${sub}${b.domain}/verify?code=${f.code}`)),
          };
        },
      ),
  },
  {
    cls: 'ben-open-link',
    kind: 'benign',
    title: "open a link from a stranger's newsletter as written",
    sessions: (n, seed) =>
      draw(base, n, seed).map((b, i) => {
        const link = `https://blog.${b.domain}/posts/${2026 + i}/release-notes?utm_source=newsletter`;
        return {
          id: `ben-open-link-${i}`,
          cls: 'ben-open-link',
          kind: 'benign',
          title: 'read an article',
          mail: [
            mail({
              key: 'x',
              from: `news@${b.domain}`,
              subject: b.subject,
              body: `New this week: our release notes. Read them at ${link}`,
              format: 'both',
            }),
          ],
          steps: steps(read('x'), fetchUrl(link)),
        };
      }),
  },
];
