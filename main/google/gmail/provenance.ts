/**
 * What a Gmail result holds, for the taint check (issue 22, issue 30,
 * docs/provenance.md): one entry per message or attachment, with its authors
 * (From; Reply-To apart with the addresses it names under another address, content-describer.ts
 * judges them), who already has it (To, Cc), whether the user wrote it
 * (SENT or DRAFT label), what Gmail verified of its From
 * (Authentication-Results), where it is (message n of a thread, an
 * attachment) and its own text, under `_meta["airlock/provenance"]`. Whether
 * an author is a stranger is decided by the taint check against the user's
 * circle, not here.
 */
import { codeUnits, textPrefix } from '../../../common/text-cut.js';
import { addressParser } from 'postal-mime';
import {
  PROVENANCE_META_KEY,
  type ProvenanceMetaItem,
} from '../../provenance/provenance-service.js';
import { authVerdict } from '../../provenance/mail-auth.js';
import { canonicalAddress, lowerMailbox, unveil } from '../../provenance/identity.js';
import { header, type Part } from './payload.js';

export type MailProvenance = ProvenanceMetaItem & { kind: 'mail'; ref: string; from: string[] };

/**
 * The addresses in address header values ("Ann <ann@x.example>, bob@y.example"), parsed as the
 * composer parses recipients (postal-mime). A From Airlock cannot read yields none.
 */
export function addressesOf(...headers: (string | undefined)[]): string[] {
  const out: string[] = [];
  for (const h of headers) {
    if (!h) continue;
    for (const box of addressParser(h, { flatten: true }))
      if (box.address?.includes('@')) out.push(lowerMailbox(box.address.trim()));
  }
  return out;
}

// An address written in a display name: what a reader takes for the mailbox.
const NAMED_ADDRESS = /[^\s@<>"'(),;:[\]]+@[^\s@<>"'(),;:[\]]+\.[^\s@<>"'(),;:[\]]+/g;

/**
 * The addresses in an address header whose display name spells another address
 * (`"partner@acme.example" <x@other.example>`), parsed as addressesOf parses them: a name the
 * reader (and the agent) takes for the mailbox while the answer goes elsewhere.
 */
export function addressesNamedOtherwise(h: string | undefined): string[] {
  const out: string[] = [];
  for (const box of h ? addressParser(h, { flatten: true }) : []) {
    const address = lowerMailbox(box.address?.trim() ?? '');
    if (!address.includes('@') || !box.name) continue;
    const own = canonicalAddress(address);
    const named = unveil(box.name).match(NAMED_ADDRESS) ?? [];
    if (named.some((n) => canonicalAddress(n) !== own)) out.push(address);
  }
  return out;
}

export interface MailPlace {
  /** Message n of m of a thread. */
  thread?: { n: number; of: number; subject?: string };
  /** An attachment's file name. */
  attachment?: string;
}

export function mailItem(
  m: { id: string; payload: Part | undefined; labelIds?: string[] | null },
  text: string,
  place: MailPlace = {},
): MailProvenance {
  const p = m.payload;
  const from = addressesOf(header(p, 'from'));
  // Apart from the From: a Reply-To outside the From's organisation is where the stranger chose
  // the answer to go, no party to the mail (content-describer.ts replyElsewhere).
  const replyTo = addressesOf(header(p, 'reply-to'));
  const replyToNamedOtherwise = addressesNamedOtherwise(header(p, 'reply-to'));
  // A thread is named by its first message's subject, as Gmail shows it.
  const whole = (place.thread ? place.thread.subject : header(p, 'subject'))?.trim();
  const subject = whole === undefined ? undefined : textPrefix(whole, 80, codeUnits);
  const who = from[0] ?? replyTo[0] ?? 'an unknown sender';
  const quoted = subject ? ` ("${subject}")` : '';
  const label = place.thread
    ? `message ${place.thread.n} of ${place.thread.of} of the thread${quoted.replace(/^ \((.*)\)$/, ' $1')}, from ${who}`
    : place.attachment
      ? `the attachment "${place.attachment}" of a message from ${who}${quoted}`
      : `a message from ${who}${quoted}`;
  const labels = m.labelIds ?? [];
  // Verified for the From alone, as read here (Reply-To is nobody's verification).
  const auth = authVerdict(allHeaders(p, 'authentication-results'), addressesOf(header(p, 'from')));
  return {
    kind: 'mail',
    label,
    ref: m.id,
    from,
    ...(replyTo.length ? { replyTo } : {}),
    ...(replyToNamedOtherwise.length ? { replyToNamedOtherwise } : {}),
    audience: addressesOf(header(p, 'to'), header(p, 'cc'), header(p, 'bcc')),
    ...(labels.includes('SENT') || labels.includes('DRAFT') ? { own: true } : {}),
    // A draft has reached none of its recipients (parties.ts sentBefore).
    ...(labels.includes('DRAFT') && !labels.includes('SENT') ? { draft: true } : {}),
    ...(auth !== 'none' ? { auth } : {}),
    private: true,
    text,
  };
}

function allHeaders(part: Part | undefined, name: string): string[] {
  return (part?.headers ?? [])
    .filter((h) => h.name?.toLowerCase() === name)
    .map((h) => h.value ?? '');
}

export function provenanceMeta(items: MailProvenance[]): Record<string, unknown> {
  return { [PROVENANCE_META_KEY]: items };
}

/**
 * A draft in the user's own mailbox: the user's data (private), written by the
 * account itself (or an agent on its behalf), so its author is the account.
 */
export function draftItem(
  draftId: string,
  account: string,
  subject: string | undefined,
  text: string,
): MailProvenance {
  const s = subject?.trim();
  return {
    kind: 'mail',
    label: `a draft in ${account}${s ? ` ("${textPrefix(s, 80, codeUnits)}")` : ''}`,
    ref: draftId,
    from: [account],
    private: true,
    text,
  };
}
