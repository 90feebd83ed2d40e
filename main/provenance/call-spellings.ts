import { percentDecodedFully, printableText } from './decodings.js';

/**
 * The two readings of a call's text that the forms made at index time (form-encodings.ts) do
 * not replace: escapes and hex spellings the call wraps around an encoding the index has no form
 * for (a code first written one way, then its text escaped or written as hex bytes). Each is one
 * pass over the text, and only where the text holds its mark; what they give is read by the
 * rule's stream only (private-data-rule.ts), for codes and keys. Base64, base32 and plain hex
 * tokens are decoded by private-readings.ts already.
 *
 * Bounded: at most MAX_SPELLED_CHARS characters read; each pattern is linear.
 */
export const MAX_SPELLED_CHARS = 200_000;

export function spelledReadings(text: string): string[] {
  const t = text.length > MAX_SPELLED_CHARS ? text.slice(0, MAX_SPELLED_CHARS) : text;
  const out: string[] = [];
  if (SIGN.test(t) && ESCAPE_MARK.test(t)) {
    const u = unescaped(t);
    if (u !== t) out.push(u);
  }
  if (HEX_MARK.test(t)) {
    const h = hexSpelled(t);
    if (h !== t) out.push(h);
  }
  return out;
}

// A sign any escape starts with: most texts have none, and are not read again. Not `%` alone:
// percent-encoding is private-readings.ts' (undone here only after another escape).
const SIGN = /[\\&=]/;
const ESCAPE_MARK = /\\[uUxX]|&#|=[0-9A-Fa-f]{2}=/;
// Runs of one kind of escape; each decoded as bytes (UTF-8) where the escape writes bytes:
// `\uXXXX`, `\u{X}`, `\xXX` (ECMA-262 §12.9.4), HTML numeric references (WHATWG HTML
// §13.2.5.72–80), quoted-printable `=XX` runs (RFC 2045 §6.7); percent-encoding after (RFC 3986).
const ESCAPES =
  /(?:\\[uU]\{[0-9a-fA-F]{1,6}\}|\\[uU][0-9a-fA-F]{4})+|(?:\\[xX][0-9a-fA-F]{2})+|(?:&#(?:[xX]0*[0-9a-fA-F]{1,6}|0*\d{1,7});?)+|(?:=[0-9A-Fa-f]{2}){2,}/g;
const CODE_POINT =
  /\\[uU]\{([0-9a-fA-F]{1,6})\}|\\[uU]([0-9a-fA-F]{4})|&#(?:[xX]0*([0-9a-fA-F]{1,6})|0*(\d{1,7}));?/g;

function unescaped(t: string): string {
  return percentDecodedFully(t.replace(ESCAPES, decodeRun));
}

function decodeRun(run: string): string {
  if (run[0] === '=' || run[1] === 'x' || run[1] === 'X') {
    // Bytes: `\xE2\x82\xAC` or `=E2=82=AC` is one UTF-8 character.
    return printableText(Buffer.from(run.replace(/\\[xX]|=/g, ''), 'hex')) ?? run;
  }
  return run.replace(
    CODE_POINT,
    (whole, braced?: string, four?: string, hex?: string, dec?: string) => {
      const code = parseInt(braced ?? four ?? hex ?? dec!, dec ? 10 : 16);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
        ? String.fromCodePoint(code)
        : whole;
    },
  );
}

// At least three bytes of hex, each perhaps after `0x` or `\x`, apart by up to three separators
// (a line break among them: a run wrapped over two lines is one run).
const HEX_RUN =
  /(?<![0-9A-Za-z])(?:(?:0[xX]|\\[xX])?[0-9a-fA-F]{2}[ \t\r\n,;:._|/-]{0,3}){3,}(?![0-9A-Za-z])/g;
// A prefix, or three bytes apart by separators: hex written whole is a token (read as one).
// Printable bytes only (2–7 first: a code's or key's characters), so that dates, amounts and
// phone numbers (`12 34 56`, `11-03`) are not read again: the check's cost (2–3 µs a call).
const HEX_MARK =
  /(?:0[xX]|\\[xX])[2-7][0-9a-fA-F]|[2-7][0-9a-fA-F][ \t\r\n,;:._|/-]{1,3}[2-7][0-9a-fA-F][ \t\r\n,;:._|/-]{1,3}[2-7][0-9a-fA-F]/;
const HEX_BYTE = /(?:0[xX]|\\[xX])?[0-9a-fA-F]{2}/g;

/** Hex bytes in their usual spellings, decoded in place where they are printable text. */
function hexSpelled(t: string): string {
  return t.replace(HEX_RUN, (run) => {
    const digits = (run.match(HEX_BYTE) ?? []).join('').replace(/0[xX]|\\[xX]/g, '');
    const text = printableText(Buffer.from(digits, 'hex'));
    return text ? ` ${text} ` : run;
  });
}
