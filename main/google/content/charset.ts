import iconv from 'iconv-lite';

// charsetOf needs no iconv: it lives in text.ts, so callers that only parse headers stay light (lazy.ts).
export { charsetOf } from './text.js';

/**
 * Labels that the WHATWG Encoding Standard (encoding.spec.whatwg.org, "Legacy
 * single-byte encodings") maps to windows-1252. Mail clients label Windows
 * text "iso-8859-1" or "us-ascii" all the time; read strictly, its curly
 * quotes and euro sign (0x80–0x9F) would come out as C1 control characters.
 */
const WINDOWS_1252_LABELS = new Set([
  'ascii',
  'us-ascii',
  'iso-8859-1',
  'iso8859-1',
  'iso_8859-1',
  'iso-ir-100',
  'latin1',
  'l1',
  'cp819',
  'ibm819',
  'cp1252',
  'windows-1252',
  'x-cp1252',
]);

/** A charset label as found in a Content-Type parameter, cleaned and mapped. */
export function normalizeCharset(label: string | undefined | null): string {
  const cleaned = (label ?? '')
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
  if (!cleaned) return 'utf-8';
  if (WINDOWS_1252_LABELS.has(cleaned)) return 'windows-1252';
  if (cleaned === 'utf8') return 'utf-8';
  return iconv.encodingExists(cleaned) ? cleaned : 'utf-8';
}

/** Bytes in the named charset → a JS string (UTF-8 when the label is unknown; BOM stripped). */
export function decodeText(bytes: Uint8Array, charset?: string | null): string {
  const text = iconv.decode(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    normalizeCharset(charset),
  );
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
