/**
 * A value written into one line of an approval card: the sender's name, a subject, a header a
 * draft holds, a file name. The card is read line by line — its first lines up to a blank one
 * are the mail's "Key: value" headers (renderer/src/approvals/summary.ts parseEffect lays out To,
 * Cc, Bcc and each Attachment from them), the rest is the preview — so a value that holds a line
 * break writes lines of its own: a display name "Carol\n\n" put the real address below the
 * headers, where the card shows the body, and a subject could add a "Bcc:" or a trashed message
 * the call does not touch. Gmail hands such values over decoded (an RFC 2047 word may encode a
 * line break), so anyone who writes a header — a stranger's subject, a draft saved elsewhere —
 * could. A Calendar card is one statement on one line, naming an invitation's title, which its
 * organizer wrote. Each break is shown as ⏎, on the line it belongs to.
 */
export function cardLine(value: string): string {
  return value.replace(/\r\n|[\r\n\v\f\u0085\u2028\u2029]/g, '⏎');
}
