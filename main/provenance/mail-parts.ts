import { addressParser } from 'postal-mime';

/**
 * Whose words are in a mail's text (issue 30): content has authors per part,
 * not one per message. A forwarded message ("---------- Forwarded message
 * ---------", "Begin forwarded message:", "-----Original Message-----") was
 * written by the `From:` in its header block; a quoted reply ("On …, Ann
 * <ann@x> wrote:" then `>` lines) by the person named in the attribution;
 * `>` lines without one by nobody Airlock can name.
 *
 * A part's author can only make it *less* trusted than the message it is in
 * (provenance-service.ts): a stranger who types "Forwarded message / From:
 * cfo@mycorp.com" into their mail gains nothing.
 */

export interface MailPart {
  kind: 'forwarded' | 'quoted';
  /** The author named for the part (a raw address), if any. */
  author?: string;
  text: string;
}

const FORWARD_MARKER =
  /^[ \t>]*(?:-{2,}\s*(?:Forwarded message|Original Message|Weitergeleitete Nachricht|Ursprüngliche Nachricht|Message transféré|Message d'origine|Mensaje reenviado|Mensaje original)\s*-{2,}|Begin forwarded message:|_{10,})[ \t]*$/i;
const FROM_LINE = /^[ \t>*]*(?:From|Von|De|Da|Van|Från)\s*:\s*\**\s*(.+)$/i;
const ATTRIBUTION =
  /^[ \t]*(?:On|Am|Le|El|Il|Op|Em)\s[^\n]{4,240}?(?:wrote|schrieb|a écrit|escribió|ha scritto|schreef|escreveu)\s*:\s*$/i;
const QUOTED = /^[ \t]*>/;

/**
 * The forwarded and quoted parts of a text (what is left is the message's own words). Line
 * based and linear; a text without markers or `>` lines costs one scan.
 */
export function authoredParts(text: string): MailPart[] {
  if (!/forward|original|nachricht|message|reenviado|_{10}|^[ \t]*>/im.test(text)) return [];
  const lines = text.split('\n');
  const parts: MailPart[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (FORWARD_MARKER.test(line)) {
      // The header block that follows names the author; the part runs to the next marker.
      let author: string | undefined;
      for (let j = i + 1; j < Math.min(lines.length, i + 10) && !author; j++) {
        const m = FROM_LINE.exec(lines[j]!);
        if (m) author = firstAddress(m[1]!);
      }
      let end = i + 1;
      while (end < lines.length && !FORWARD_MARKER.test(lines[end]!)) end++;
      parts.push({
        kind: 'forwarded',
        ...(author ? { author } : {}),
        text: lines.slice(i, end).join('\n'),
      });
      i = end;
      continue;
    }
    const attribution = attributionAt(lines, i);
    if (attribution || QUOTED.test(line)) {
      const start = attribution ? i + attribution.span : i;
      let end = start;
      while (
        end < lines.length &&
        (QUOTED.test(lines[end]!) || (!lines[end]!.trim() && QUOTED.test(lines[end + 1] ?? '')))
      )
        end++;
      if (end > start || attribution) {
        const author = attribution?.author;
        parts.push({
          kind: 'quoted',
          ...(author ? { author } : {}),
          text: lines.slice(start, Math.max(end, start)).join('\n'),
        });
        i = Math.max(end, i + 1);
        continue;
      }
    }
    i++;
  }
  return parts.filter((p) => p.text.trim());
}

/** An attribution line (possibly wrapped over two lines, as Gmail wraps it) at line i. */
function attributionAt(lines: string[], i: number): { author?: string; span: number } | null {
  const one = lines[i]!;
  if (ATTRIBUTION.test(one)) return withAuthor(one, 1);
  const two = `${one} ${lines[i + 1] ?? ''}`;
  if (/^[ \t]*(?:On|Am|Le|El|Il|Op|Em)\s/i.test(one) && ATTRIBUTION.test(two))
    return withAuthor(two, 2);
  return null;
}

function withAuthor(line: string, span: number): { author?: string; span: number } {
  const author = /<([^<>\s]+@[^<>\s]+)>/.exec(line)?.[1] ?? /\S+@\S+\.[^\s,:]+/.exec(line)?.[0];
  return { ...(author ? { author } : {}), span };
}

function firstAddress(header: string): string | undefined {
  const box = addressParser(header.replace(/\*+/g, ''), { flatten: true }).find((b) => b.address);
  return box?.address || undefined;
}
