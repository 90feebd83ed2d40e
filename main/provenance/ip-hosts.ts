/**
 * IP-address hosts keyed as the thing that acts reaches them (identity.ts canonicalHost uses
 * this; batch 4 of the outside corpus): a mail gives `203.0.113.77` and the agent calls
 * `http://3405803853/in`, `http://0xcb00714d/`, `http://0313.0.0161.0115/` or
 * `http://[::ffff:cb00:714d]/` — every one of them reaches the same machine.
 *
 * - IPv4 in any spelling the WHATWG URL parser accepts (decimal, `0x` hex, `0` octal, one to
 *   four parts) is keyed dotted decimal, and the parser that decides it is WHATWG `URL` itself,
 *   the one fetch then acts with (URL Standard, "IPv4 parser"; a host that ends in a number and
 *   is no IPv4 address, such as `1.2.3.4.5` or `foo.123`, is no host for it either).
 * - IPv6 is keyed as WHATWG serialises it (lower case, the longest run of zeros compressed,
 *   in brackets), except an IPv4-mapped address `::ffff:a.b.c.d` (RFC 4291 §2.5.5.2): a
 *   dual-stack socket connects to the IPv4 address (Node's `net.BlockList` matches it as that
 *   address too), so it is keyed as the IPv4 address. So is the NAT64 well-known prefix
 *   `64:ff9b::/96` (RFC 6052 §2.1): on an IPv6-only network with NAT64 (RFC 6146) it reaches
 *   the embedded IPv4 address; elsewhere it reaches nothing, so one key for both costs nothing.
 */

// URL Standard's "ends in a number checker": the last label (after one trailing dot) is all
// digits or an IPv4 number in hex (`0x`, `0x1f`). Such a host is an IPv4 address or invalid.
const ENDS_IN_NUMBER = /(?:^|\.)(?:\d+|0x[0-9a-f]*)\.?$/;
// What may go to the parser as a host alone: no `@ / : ? #` that would make it a URL's other parts.
const IPV4_CHARS = /^[a-z0-9._-]+$/;
const IPV6_BRACKETED = /^\[[0-9a-f:.]{2,45}\]$/;
const IPV6_BARE = /^[0-9a-f]{0,4}:[0-9a-f:.]{1,43}$/;

/**
 * The key of an IP host, '' for a host that ends in a number (or is bracketed) but that WHATWG
 * rejects, and undefined for a host that is not written as an IP address at all (a domain name).
 * `host` is lower case ASCII (identity.ts has done that).
 */
export function ipHostKey(host: string): string | undefined {
  let candidate: string;
  if (host.startsWith('[')) {
    if (!IPV6_BRACKETED.test(host)) return '';
    candidate = host;
  } else if (IPV6_BARE.test(host) && host.indexOf(':') !== host.lastIndexOf(':')) {
    candidate = `[${host}]`;
  } else if (ENDS_IN_NUMBER.test(host)) {
    if (!IPV4_CHARS.test(host)) return '';
    candidate = host;
  } else return undefined;
  let parsed: string;
  try {
    parsed = new URL(`http://${candidate}/`).hostname;
  } catch {
    return '';
  }
  return parsed.startsWith('[') ? (embeddedIPv4(parsed) ?? parsed) : parsed;
}

/** Whether a host key is an IP address (its "parent domains" are no organisation's). */
export function isIpKey(host: string): boolean {
  return host.startsWith('[') || /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The IPv4 address an IPv6 address reaches, for `::ffff:0:0/96` (mapped) and `64:ff9b::/96`
 * (NAT64 well-known prefix). `bracketed` is WHATWG's serialisation, so it is valid, lower case
 * and has at most one `::`.
 */
function embeddedIPv4(bracketed: string): string | undefined {
  const inner = bracketed.slice(1, -1);
  const [head = '', tail] = inner.split('::');
  const h = head ? head.split(':') : [];
  const t = tail === undefined ? [] : tail ? tail.split(':') : [];
  const words = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t].map((w) =>
    parseInt(w, 16),
  );
  if (words.length !== 8) return undefined;
  const mapped = words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff;
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0);
  if (!mapped && !nat64) return undefined;
  const hi = words[6]!;
  const lo = words[7]!;
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/**
 * An IPv4 address written alone in text: four dotted parts (decimal, or `0x` hex), not inside a
 * longer run of digits and dots (`1.2.3.4.5`, `v1.2.3.4`) or a word. Parts are checked by
 * WHATWG afterwards (`2026.12.04.1` has a part over 255: no address). Fewer than four parts are
 * not read in prose: `3.14` would be `3.0.0.14`. Linear: each part ends at its dot.
 *
 * Chinese, Japanese and Korean prose has no spaces (`发送到203.0.113.77。谢谢`), so their
 * letters do not join the address to a word; and the dot may be the ideographic full stop `。`
 * (U+3002; NFKC makes the halfwidth `｡` one and the full-width `．` a dot), which UTS #46 maps to
 * `.`: `http://203。0。113。77/` and Node's `dns.lookup` reach `203.0.113.77`.
 */
const WORD = String.raw`(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}])[\p{L}\p{N}_]`;
const PART = String.raw`(?:0x[0-9a-f]{1,8}|\d{1,10})`;
// `\u3002` is `。` spelled in ASCII (the `u` flag reads the escape): the bundle is ASCII-only, so
// V8 holds its source in one byte a character (scripts/build-cli.mjs, charset).
const DOT = String.raw`[.\u3002]`;
export const IPV4_IN_TEXT = new RegExp(
  String.raw`(?<!${WORD}|${DOT})(?:${PART}${DOT}){3}${PART}(?!${WORD}|${DOT}${WORD})`,
  'giu',
);
/** An IPv6 literal written in brackets (`[2001:db8::1]`, `[::ffff:203.0.113.77]`), as in a URL. */
export const IPV6_IN_TEXT = /\[[0-9a-f]{0,4}:[0-9a-f:.]{1,43}\]/gi;

/**
 * A reading of a stranger's text (readings.ts): a dotted IPv4 address with zero-padded decimal
 * parts (`203.000.113.077`) is read as a person reads it, decimal (`203.0.113.77`). As written it
 * is keyed as WHATWG reaches it, octal (`203.0.113.63`): a model that retypes it without the
 * zeros goes to the decimal address. Both keys are indexed; the text as written is unchanged.
 */
export function paddedIPv4Read(text: string): string {
  if (!/(?:^|\D)0\d/.test(text)) return text;
  return text.replace(IPV4_IN_TEXT, (ip) => {
    const parts = ip.split('.');
    if (!parts.some((p) => /^0\d/.test(p)) || !parts.every((p) => /^\d{1,3}$/.test(p))) return ip;
    const n = parts.map((p) => parseInt(p, 10));
    return n.every((x) => x <= 255) ? n.join('.') : ip;
  });
}
