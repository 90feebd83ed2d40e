import { credentialForms } from './credential-forms.js';

/**
 * Replaces known secret values wherever they would leave Airlock: a server connection's status
 * details, error texts and results (remote/connection/redact.ts — an upstream that echoes our
 * credential back must not hand it to the agent), and every log line (platform/log.ts).
 * A second line of defence: nothing here is meant to contain a secret.
 */
export class Redactor {
  private secrets: string[] = [];
  /** The same, as each stands inside a JSON string (result() and json() look in the JSON text). */
  private inJson: string[] = [];

  set(values: readonly string[]): void {
    // Very short values would redact ordinary words; they are not credentials anyone should use.
    // A credential is also echoed without its scheme ("Token ", "Basic ", decoded: credential-forms.ts)
    // and URL-encoded (a link's query, RFC 3986 §2.1).
    // Also JSON-escaped as text (a child's JSON logger, a result whose text is JSON: escaped once
    // there, twice in a log line) and with non-ASCII as `\u` escapes (Python's json.dumps).
    // The escapes other JSON encoders write too: `\/` (PHP), upper-case `\u` hex (.NET), and
    // HTML-safe `\u003c`-style escapes of `<>&='+` (Go, Gson, .NET). The minimum length is the raw
    // form's, so a short value is not redacted in an escaped form alone.
    const forms = values.flatMap(credentialForms).filter((v) => v.length >= 6);
    const all = forms.flatMap((v) => [v, uriEncoded(v), ...escapedForms(v)]);
    this.secrets = [...new Set(all)].sort((a, b) => b.length - a.length);
    this.inJson = this.secrets.map((v) => JSON.stringify(v).slice(1, -1));
  }

  text(s: string): string {
    return this.replaced(s);
  }

  private replaced(s: string): string {
    let out = s;
    for (const secret of this.secrets)
      if (out.includes(secret)) out = out.split(secret).join('[redacted]');
    return out;
  }

  /** `r` with every secret replaced, itself when it holds none. */
  result<T extends object>(r: T): T {
    if (this.inJson.length === 0) return r;
    const redacted = this.inJsonText(JSON.stringify(r));
    return redacted ? (redacted.value as T) : r;
  }

  /**
   * A JSON text (a log line) with every secret replaced, still JSON. A secret holding `"` or `\`
   * stands escaped in it (`hunter2\"pass\\word`), where the raw value is not found.
   */
  json(text: string): string {
    if (this.inJson.length === 0) return text;
    return this.inJsonText(text)?.text ?? text;
  }

  /** The JSON text with the secrets replaced, and its value; undefined when it holds none. */
  private inJsonText(json: string): { text: string; value: unknown } | undefined {
    // JSON-escaped, so one containing quotes or backslashes is still found (and seen to be there).
    if (!this.inJson.some((s) => json.includes(s))) return undefined;
    let out = json;
    for (const secret of this.inJson) out = out.split(secret).join('[redacted]');
    try {
      return { text: out, value: JSON.parse(out) };
    } catch {
      // A secret matched outside a string (a numeric key echoed as a number, `{"n":12345678}`):
      // the text is no longer JSON. Value by value then — strings, keys, and a number holding a
      // secret becomes the string "[redacted]".
      const value: unknown = JSON.parse(json, (_k, v: unknown) => this.value(v));
      return { text: JSON.stringify(value), value };
    }
  }

  private value(v: unknown): unknown {
    if (typeof v === 'string') return this.replaced(v);
    if (typeof v === 'number') return this.replaced(String(v)) === String(v) ? v : '[redacted]';
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const out: Record<string, unknown> = {};
    // Defined, not assigned: a "__proto__" key stays a key, as JSON.parse made it.
    for (const [k, x] of Object.entries(v))
      Object.defineProperty(out, this.replaced(k), {
        value: x,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
}

/** `v` URL-encoded; itself when it cannot be (a lone surrogate makes encodeURIComponent throw). */
function uriEncoded(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return v;
  }
}

/** `v` as JSON encoders write it inside a string, each form a literal to look for. */
function escapedForms(v: string): string[] {
  return [
    JSON.stringify(v).slice(1, -1), // JSON.stringify, serde, Jackson
    encoded(v, /[^\p{ASCII}]/u, false), // Python json.dumps (ensure_ascii)
    encoded(v, /[^\p{ASCII}]/u, false, '\\"', '\\/'), // PHP json_encode: non-ASCII and "/"
    encoded(v, /[<>&\u2028\u2029\ud800-\udfff]/, false), // Go encoding/json (HTML-safe)
    encoded(v, /[<>&='\u2028\u2029]/, false), // Gson (HTML-safe)
    // .NET System.Text.Json (JavaScriptEncoder.Default): non-ASCII, HTML-sensitive characters and
    // `"` as upper-case \u escapes.
    encoded(v, /[^\p{ASCII}]|[\x7f<>&'+`]/u, true, '\\u0022'),
  ];
}

const SHORT: Record<string, string> = {
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * `v` inside a JSON string as an encoder writes it: JSON's own escapes (RFC 8259 §7), then every
 * code unit in `escape` as `\uXXXX` in the encoder's hex case, `"` and `/` as it writes them.
 */
function encoded(v: string, escape: RegExp, upper: boolean, quote = '\\"', slash = '/'): string {
  let out = '';
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '"') out += quote;
    else if (c === '\\') out += '\\\\';
    else if (c === '/') out += slash;
    else if (SHORT[c]) out += SHORT[c];
    else if (c < ' ' || escape.test(c)) {
      const h = c.charCodeAt(0).toString(16).padStart(4, '0');
      out += `\\u${upper ? h.toUpperCase() : h}`;
    } else out += c;
  }
  return out;
}
