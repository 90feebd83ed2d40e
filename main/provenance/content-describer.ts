import { UNTRUSTED_META_KEY, untrustedNote } from '../tools/untrusted.js';
import type { CallToolResult } from '../tools/types.js';
import type { ContentItem } from './content-index.js';
import { canonicalAddress, hostOfAddress, inOrganisationOf } from './identity.js';
import type { KnownParties } from './known-parties.js';
import type { AuthVerdict } from './mail-auth.js';
import { authoredParts } from './mail-parts.js';

/**
 * What a result the agent received holds, and whose words it is (issue 22,
 * issue 30): one item per message, attachment, event or result, and one per
 * forwarded or quoted part inside a message, each with its authors and who
 * already has it.
 *
 * Sources describe their results under `_meta["airlock/provenance"]`
 * (ProvenanceMetaItem). Only Airlock's own sources may: a third-party
 * server's `_meta` is its own words, so its results are untrusted whole
 * whatever they claim. Trust fails closed: content whose author cannot be
 * established (no parseable From, a failing DMARC) is a stranger's.
 */

/** `_meta` key under which a source describes what a result holds. */
export const PROVENANCE_META_KEY = 'airlock/provenance';

/** One piece of content as a source describes it in `_meta["airlock/provenance"]`. */
export interface ProvenanceMetaItem {
  kind: ContentItem['kind'];
  /** What it is and where ("the attachment \"a.txt\" of a message from x@y (\"Subj\")"). */
  label: string;
  ref?: string;
  /** Its authors as written (a mail's From, an event's organiser); empty: nobody nameable. */
  from?: string[];
  /**
   * A mail's Reply-To addresses, as the source parsed the header: authors too (the mail is a
   * stranger's if one is); which are no party to it is decided here (replyElsewhere).
   */
  replyTo?: string[];
  /**
   * Of `replyTo`, the addresses whose display name spells another address, as the source parsed
   * the header (`"partner@acme.example" <x@other.example>`): a disguise (replyElsewhere).
   */
  replyToNamedOtherwise?: string[];
  /** Who already has it besides its authors (To, Cc, an event's guests). */
  audience?: string[];
  /** The source knows the user wrote it (a SENT or DRAFT label, an event they organise). */
  own?: boolean;
  /**
   * Her own words not sent (a DRAFT label): its To, Cc and Bcc have not received it, so it is
   * no "you have sent to it before" (parties.ts sentBefore).
   */
  draft?: boolean;
  /** For mail: what the receiving server verified of the From (mail-auth.ts). */
  auth?: AuthVerdict;
  private?: boolean;
  /** Set by the source when it knows; otherwise decided from the authors and the user's circle. */
  untrusted?: boolean;
  /** This item's own text; without it, the whole result's text is attributed to it. */
  text?: string;
}

export interface ObservedResult {
  agent: string;
  tool: string;
  sourceKind: 'builtin' | 'google' | 'remote' | 'test';
  sourceLabel: string;
  result: CallToolResult;
  /** What it was, when the caller knows better than "a result of <tool>" (a tool's description). */
  label?: string;
}

export type Described = { item: Omit<ContentItem, 'id' | 'at'>; text: string };

const CALENDAR_NOTE_PREFIX = '[Airlock: event titles';

export class ContentDescriber {
  /** The last server's note (untrusted.ts), kept: results come in runs from one server. */
  private note = { server: '', text: '' };
  /**
   * The last remote result's label, kept as the note is: calls come in runs of one tool, and the
   * label was a new string on every remote result (issue 34, wave 3 session 32).
   */
  private label = { tool: '', server: '', text: '' };

  constructor(private readonly known: KnownParties) {}

  /** "a result of <tool> from the server "<server>"", the last one kept (`label`). */
  private remoteLabel(tool: string, server: string): string {
    const l = this.label;
    if (l.tool === tool && l.server === server && l.text) return l.text;
    const text = `a result of ${tool} from the server "${server}"`;
    this.label = { tool, server, text };
    return text;
  }

  itemsOf(r: ObservedResult): Described[] {
    // The note of the server last read, without a call (issue 34: every result comes here).
    const note =
      this.note.server === r.sourceLabel && this.note.text
        ? this.note.text
        : this.noteOf(r.sourceLabel);
    const whole = textOf(r.result, note);
    if (!whole) return [];
    const meta = (r.result._meta ?? {}) as Record<string, unknown>;
    const described = meta[PROVENANCE_META_KEY];
    if (r.sourceKind !== 'remote' && Array.isArray(described)) {
      return (described as ProvenanceMetaItem[]).flatMap((d) => this.describedItems(d, r, whole));
    }
    if (r.sourceKind === 'remote' || meta[UNTRUSTED_META_KEY]) {
      return [
        {
          item: {
            kind: 'remote',
            label: r.label ?? this.remoteLabel(r.tool, r.sourceLabel),
            ref: r.sourceLabel,
            untrusted: true,
            private: false,
            tool: r.tool,
          },
          text: whole,
        },
      ];
    }
    if (r.sourceKind === 'google') {
      // A Google result that does not describe itself: private, and a stranger's words when a
      // sender named in it is outside the user's circle or cannot be read (fail closed).
      // Its text may hold several messages, whose From and Reply-To lines cannot be paired: every
      // Reply-To counts as an author and a party here (Airlock's Gmail tools describe each
      // message, and are judged by replyElsewhere below).
      const lines = [...whole.matchAll(/^(?:From|Reply-To): (.*)$/gim)].map((m) => m[1] ?? '');
      const from = lines.map((l) => canonicalAddress(/<([^<>]+)>/.exec(l)?.[1] ?? l.trim()));
      const named = from.filter(Boolean);
      return [
        {
          item: {
            kind: 'mail',
            label: named.length ? `mail from ${named[0]}` : `a result of ${r.tool}`,
            ...(named.length ? { from: named } : {}),
            untrusted: from.some((f) => !f || !this.known.isKnownAddress(f)),
            private: true,
            tool: r.tool,
          },
          text: whole,
        },
      ];
    }
    return [];
  }

  private noteOf(server: string): string {
    if (this.note.server !== server || !this.note.text)
      this.note = { server, text: untrustedNote(server) };
    return this.note.text;
  }

  private describedItems(d: ProvenanceMetaItem, r: ObservedResult, whole: string): Described[] {
    const sender = canonicalList(d.from);
    const replyTo = canonicalList(d.replyTo);
    // Reply-To's addresses are authors (where the author wants answers): trust counts them all.
    const from = [...new Set([...sender, ...replyTo])];
    const disguised = canonicalList(d.replyToNamedOtherwise);
    const elsewhere =
      d.kind === 'mail' ? replyElsewhere(sender, replyTo, disguised, this.known, d.auth) : [];
    const audience = canonicalList(d.audience);
    const authored = d.kind === 'mail' || d.kind === 'event';
    // The user's own words: the source says so (a SENT or DRAFT label, an event they organise),
    // or a From of theirs that the receiving server verified — a From alone is easy to forge.
    const own =
      d.own === true ||
      (authored &&
        from.length > 0 &&
        d.auth === 'pass' &&
        from.every((f) => this.known.isOwnAddress(f)));
    const untrusted =
      d.untrusted ??
      (authored
        ? !own &&
          (from.length === 0 ||
            d.auth === 'fail' ||
            from.some((f) => !this.known.isKnownAddress(f)))
        : true);
    const base: Omit<ContentItem, 'id' | 'at'> = {
      kind: d.kind,
      label: d.label,
      ...(d.ref ? { ref: d.ref } : {}),
      ...(from.length ? { from } : {}),
      ...(elsewhere.length ? { replyElsewhere: elsewhere } : {}),
      ...(audience.length ? { audience } : {}),
      untrusted,
      private: d.private ?? authored,
      ...(own ? { own } : {}),
      ...(own && d.draft === true ? { draft: true } : {}),
      tool: r.tool,
    };
    let text = d.text ?? whole;
    if (d.kind !== 'mail') return [{ item: base, text }];
    // Forwarded and quoted parts have their own authors; they can only be less trusted.
    const out: Described[] = [];
    for (const part of authoredParts(text)) {
      text = text.replace(part.text, '\n');
      const author = part.author ? canonicalAddress(part.author) : '';
      const who = author || (part.kind === 'forwarded' ? 'an unknown sender' : 'an unknown author');
      out.push({
        item: {
          ...base,
          label:
            part.kind === 'forwarded'
              ? `a message from ${who} forwarded in ${d.label}`
              : `text quoted from ${who} in ${d.label}`,
          from: author ? [author] : [],
          // The mail's parties had it; a Reply-To elsewhere is none (it only gets the answer).
          audience: [...from.filter((f) => !elsewhere.includes(f)), ...audience],
          untrusted: untrusted || !author || !this.known.isKnownAddress(author),
          own: false,
        },
        text: part.text,
      });
    }
    out.unshift({ item: base, text });
    return out;
  }
}

/**
 * The Reply-To addresses that are no party to the mail (parties.ts): outside the organisation of
 * every From address (identity.ts inOrganisationOf; at a public provider a From's organisation is
 * its own mailbox), when
 * - the Reply-To also names the sender or its organisation: the sender keeps the answer and adds
 *   a recipient elsewhere, in a header the user never sees — the hidden extra destination of a
 *   header-place injection ("reply to confirm", Reply-To: support@x.example,
 *   escalate@x-ops.example); or
 * - the From is in the user's circle (her organisation, a contact she approved): the answer she
 *   means for someone she knows would go elsewhere — the reply-to hijack of a known identity (a
 *   partner's account taken over, a colleague's From passing DMARC); or, for that address alone,
 * - its display name spells another address (`"partner@acme.example" <x@other.example>`,
 *   ProvenanceMetaItem.replyToNamedOtherwise): a disguise no ticket system needs, the reader
 *   taking it for the named mailbox while the answer goes elsewhere.
 * A stranger's mail whose Reply-To names only another organisation hands the whole conversation
 * over, as helpdesk and list software does (From support@acme.example, Reply-To
 * ticket+123@acme.zendesk.example): that address stays a party, as the From would be. Nothing
 * Airlock reads tells a vendor's ticket system from the stranger's own second mailbox, and the
 * stranger could as well have written from it; making every such reply ask flagged every reply
 * to a helpdesk of the team corpus (ben-helpdesk-reply-to). Its data is still rule 2's.
 * Other benign uses, decided:
 * - a mailing list: its address is in the post's To or Cc (the post was sent there), an audience
 *   and so a party — but not when the Reply-To names it elsewhere as above (parties.ts isParty):
 *   a hijacker's address in the Cc as well would otherwise pass, so a known sender's post to an
 *   outside list that sets Reply-To to the list asks once. List-Post and List-Id are not read:
 *   they are headers the sender writes like Reply-To, and would hand it the same let-off;
 * - a Reply-To the user knows (her circle, mail she has sent there): a known destination is never
 *   judged by rule 1 (taint-check.ts), so it does not ask;
 * - `"Partner" <x@other.example>`: the address is what the source parsed (postal-mime, as the
 *   composer reads recipients), never the name; a name that spells the same mailbox
 *   (`"x@other.example" <X+t@other.example>`) is no disguise.
 */
function replyElsewhere(
  sender: string[],
  replyTo: string[],
  disguised: string[],
  known: KnownParties,
  auth: AuthVerdict | undefined,
): string[] {
  const outside = replyTo.filter(
    (r) => !sender.some((f) => f === r || inOrganisationOf(hostOfAddress(r), f)),
  );
  if (outside.length === 0) return [];
  const keepsSender = outside.length < replyTo.length;
  if (keepsSender) return outside;
  // A From of the user's own organisation that the receiving server verified hands the answer to
  // whoever its Reply-To names by her organisation's own doing — a website's contact form
  // (website@corp, Reply-To the visitor), a group that rewrites the From to itself (Reply-To the
  // customer) — not a stranger's; one forged from outside fails its check (mail-auth.ts) and is
  // judged as any known From below.
  if (auth === 'pass' && sender.every((f) => known.isOwnOrganisation(f)))
    return outside.filter((r) => disguised.includes(r));
  if (sender.some((f) => known.isKnownAddress(f))) return outside;
  return outside.filter((r) => disguised.includes(r));
}

function canonicalList(list: string[] | undefined): string[] {
  return [...new Set((list ?? []).map(canonicalAddress).filter(Boolean))];
}

/** The result's words, without Airlock's own notes (`skip`, the calendar's): those are not the source's. */
export function textOf(result: CallToolResult, skip?: string): string {
  const parts: string[] = [];
  // Indexed, not `for…of` (issue 34, wave 3 session 32: an iterator result per block a call).
  const content = result.content ?? [];
  for (let i = 0; i < content.length; i++) {
    const c = content[i]!;
    if (c.type === 'text') {
      if (c.text !== skip && !c.text.startsWith(CALENDAR_NOTE_PREFIX)) parts.push(c.text);
    } else if (c.type === 'resource') {
      // A block a hostile server left malformed must not cost the rest of the result its reading.
      const text = (c.resource as { text?: unknown } | undefined)?.text;
      if (typeof text === 'string') parts.push(text);
    }
  }
  if (result.structuredContent) parts.push(JSON.stringify(result.structuredContent));
  return parts.length === 1 ? parts[0]! : parts.join('\n');
}
