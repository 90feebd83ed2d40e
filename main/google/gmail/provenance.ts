/**
 * What a Gmail result holds, for the taint check (issue 22, docs/provenance.md):
 * one entry per message, with its senders and its own text, under
 * `_meta["airlock/provenance"]`. Whether a sender is a stranger is decided by
 * the taint check against the user's circle, not here.
 */
export const PROVENANCE_META_KEY = 'airlock/provenance';

export interface MailProvenance {
  kind: 'mail';
  label: string;
  ref: string;
  from: string[];
  private: true;
  text: string;
}

/** The addresses in From / Reply-To header values ("Ann <ann@x.example>, bob@y.example"). */
export function addressesOf(...headers: (string | undefined)[]): string[] {
  const out = new Set<string>();
  for (const h of headers) {
    for (const m of (h ?? '').matchAll(
      /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}/g,
    ))
      out.add(m[0].toLowerCase());
  }
  return [...out];
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
