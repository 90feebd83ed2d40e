import { benignCalendarClasses } from './classes-benign-calendar.js';
import { benignForwardingClasses } from './classes-benign-forwarding.js';
import { benignLinkClasses } from './classes-benign-links.js';
import { benignMailClasses } from './classes-benign-mail.js';
import { benignMoreClasses } from './classes-benign-more.js';
import { benignReplyClasses } from './classes-benign-replies.js';
import { benignToolClasses } from './classes-benign-tools.js';
import { injectAddressClasses } from './classes-inject-address.js';
import { injectCalendarClasses } from './classes-inject-calendar.js';
import { injectConversationClasses } from './classes-inject-conversation.js';
import { injectIdentityClasses } from './classes-inject-identity.js';
import { injectMoreClasses } from './classes-inject-more.js';
import { injectMailClasses } from './classes-inject-mail.js';
import { injectToolClasses } from './classes-inject-tools.js';
import { limitClasses } from './classes-limits.js';
import { heldOut, type Session, type SessionClass } from './session.js';

/**
 * The provenance corpus (issue 30): every class's sessions, generated from a
 * fixed seed per class. Split by a hash of each case id (session.ts
 * `heldOut`): the held-out third is never used to tune the rules and is
 * reported apart.
 */

export const CLASSES: SessionClass[] = [
  ...injectMailClasses,
  ...injectConversationClasses,
  ...injectIdentityClasses,
  ...injectAddressClasses,
  ...injectCalendarClasses,
  ...injectToolClasses,
  ...benignMailClasses,
  ...benignForwardingClasses,
  ...benignLinkClasses,
  ...benignCalendarClasses,
  ...benignToolClasses,
  ...benignMoreClasses,
  ...limitClasses,
  ...injectMoreClasses,
  ...benignReplyClasses,
];

/** Sessions per class: attacks and benign work alike; documented limits need only a few. */
const PER_CLASS = { injected: 8, benign: 8, limit: 3 } as const;

export function corpus(): Session[] {
  return CLASSES.flatMap((c, k) => c.sessions(PER_CLASS[c.kind], 30_000 + 97 * k));
}

export function split(sessions: Session[]): { tuning: Session[]; heldOut: Session[] } {
  return {
    tuning: sessions.filter((s) => !heldOut(s.id)),
    heldOut: sessions.filter((s) => heldOut(s.id)),
  };
}
