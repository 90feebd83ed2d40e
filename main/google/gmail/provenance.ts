/**
 * What a Gmail result holds, for the taint check (issue 22, docs/provenance.md):
 * one entry per message, with its senders and its own text, under
 * `_meta["airlock/provenance"]`. Whether a sender is a stranger is decided by
 * the taint check against the user's circle, not here.
 */
import {
  PROVENANCE_META_KEY,
  type ProvenanceMetaItem,
} from '../../provenance/provenance-service.js';
import { extractValues } from '../../provenance/values.js';

export type MailProvenance = ProvenanceMetaItem & { kind: 'mail'; ref: string; from: string[] };

/** The addresses in From / Reply-To header values ("Ann <ann@x.example>, bob@y.example"). */
export function addressesOf(...headers: (string | undefined)[]): string[] {
  const values = extractValues(headers.filter(Boolean).join('\n'));
  return values.filter((v) => v.kind === 'email').map((v) => v.value);
}

export function mailItem(
  id: string,
  headers: { from?: string; replyTo?: string; subject?: string },
  text: string,
): MailProvenance {
  const from = addressesOf(headers.from, headers.replyTo);
  const subject = headers.subject?.trim();
  return {
    kind: 'mail',
    label: `a message from ${from[0] ?? 'an unknown sender'}${subject ? ` ("${subject.slice(0, 80)}")` : ''}`,
    ref: id,
    from,
    private: true,
    text,
  };
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
    label: `a draft in ${account}${s ? ` ("${s.slice(0, 80)}")` : ''}`,
    ref: draftId,
    from: [account],
    private: true,
    text,
  };
}
