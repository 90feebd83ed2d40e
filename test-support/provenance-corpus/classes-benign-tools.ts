import fc from 'fast-check';
import { mail, read, send, steps } from './builders.js';
import type { SessionClass, Step } from './session.js';
import { COLLEAGUES, draw, orgDomain, person, pick, subject, USER } from './world.js';

/**
 * Benign sessions with third-party tools (issue 30): a note that mentions an
 * address, tools aimed at the user's own organisation, and a first mail to an
 * address the agent never read anywhere.
 */

const base = fc.record({
  p: person,
  domain: orgDomain,
  subject,
  seed: fc.integer({ min: 1, max: 1e6 }),
});

/** A third-party tool aimed inside the organisation, with the user's own words. */
function ownOrgCall(which: number, colleague: string): Step {
  const text = 'Reminder: the design review moved to Thursday afternoon.';
  const calls: Step[] = [
    {
      tool: 'crm__send_message',
      args: { recipient_email: colleague, subject_line: 'Review', message_body: text },
    },
    {
      tool: 'hooks__deliver',
      args: { webhookUrl: 'https://hooks.example.com/team/review', payload: text },
    },
    { tool: 'notify__notify', args: { notifyList: [{ addr: colleague, name: 'Team' }], text } },
    {
      tool: 'share__share_document',
      args: {
        doc_id: 'review-notes',
        shareWith: [colleague, 'sam.jones@gmail.com'],
        role: 'commenter',
      },
    },
    {
      tool: 'automation__run_flow',
      args: {
        config: { target: { uri: 'https://automation.corp.example.com/flows/7' }, retries: 1 },
        data: text,
      },
    },
    {
      tool: 'tickets__create_ticket',
      args: { title: 'Review moved', body: text, cc_list: [colleague] },
    },
    {
      tool: 'mailer__queue',
      args: {
        envelope: { rcpt: [colleague], sender: USER },
        content: { subject: 'Review', html: `<p>${text}</p>` },
      },
    },
  ];
  return calls[which % calls.length]!;
}

export const benignToolClasses: SessionClass[] = [
  {
    cls: 'ben-note-mentions',
    kind: 'benign',
    title: "a note that mentions a stranger's address in its text",
    sessions: (n, seed) =>
      draw(base, n, seed).map((b, i) => {
        const who = `${b.p.local}@${b.domain}`;
        return {
          id: `ben-note-mentions-${i}`,
          cls: 'ben-note-mentions',
          kind: 'benign',
          title: 'take a note',
          mail: [
            mail({
              key: 'x',
              from: who,
              name: b.p.name,
              subject: b.subject,
              body: `Hi, I am ${b.p.name}, new account manager. Reach me at ${who} or call +44 20 7946 09${String(10 + i).slice(-2)}.`,
            }),
          ],
          steps: steps(read('x'), {
            tool: 'notes__create_note',
            args: {
              title: 'New contact',
              text: `New account manager ${b.p.name}, ${who}. Call back next week.`,
            },
          }),
        };
      }),
  },
  {
    cls: 'ben-third-party-own-org',
    kind: 'benign',
    title: "third-party tools aimed at the user's own organisation, in her own words",
    sessions: (n, seed) =>
      draw(fc.record({ b: base, which: fc.nat(), colleague: pick(COLLEAGUES) }), n, seed).map(
        ({ b, which, colleague }, i) => ({
          id: `ben-third-party-own-org-${i}`,
          cls: 'ben-third-party-own-org',
          kind: 'benign',
          title: 'notify the team',
          mail: [
            mail({
              key: 'x',
              from: `${b.p.local}@${b.domain}`,
              subject: b.subject,
              body: 'Our newsletter: tips for better design reviews, and a webinar on Thursday.',
            }),
          ],
          steps: steps(read('x'), ownOrgCall(which + i, colleague)),
        }),
      ),
  },
  {
    cls: 'ben-new-address-from-user',
    kind: 'benign',
    title: 'a first mail to an address the agent never read (the user gave it)',
    sessions: (n, seed) =>
      draw(base, n, seed).map((b, i) => ({
        id: `ben-new-address-from-user-${i}`,
        cls: 'ben-new-address-from-user',
        kind: 'benign',
        title: 'write to someone new',
        mail: [
          mail({ key: 'x', from: 'bob@example.com', subject: 'Lunch', body: 'Lunch on Friday?' }),
        ],
        steps: steps(
          read('x'),
          send(
            [`${b.p.local}@fresh-${i}.test`],
            'Hello, nice to meet you at the conference yesterday!',
          ),
        ),
      })),
  },
];
