import type { CallToolResult } from '../../tools/types.js';

/**
 * Replaces known secret values (a server's bearer token and header values)
 * wherever they would leave Airlock: status details, error texts, and results
 * — an upstream that echoes our credential back must not hand it to the agent.
 * A second line of defence: nothing here is meant to contain a secret.
 */
export class Redactor {
  private secrets: string[] = [];
  /** The same, as each stands inside a JSON string (result() looks in the JSON text). */
  private inJson: string[] = [];

  set(values: readonly string[]): void {
    // Very short values would redact ordinary words; they are not credentials anyone should use.
    // A token is also echoed bare (no "Bearer ") and URL-encoded (a link's query, RFC 3986 §2.1).
    const bare = values.flatMap((v) => [v, v.replace(/^Bearer\s+/i, '')]);
    const all = bare.flatMap((v) => [v, uriEncoded(v)]);
    this.secrets = [...new Set(all)]
      .filter((v) => v.length >= 6)
      .sort((a, b) => b.length - a.length);
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

  result<T extends object = CallToolResult>(r: T): T {
    if (this.inJson.length === 0) return r;
    const json = JSON.stringify(r);
    // JSON-escaped, so one containing quotes or backslashes is still found (and seen to be there).
    if (!this.inJson.some((s) => json.includes(s))) return r;
    let out = json;
    for (const secret of this.inJson) out = out.split(secret).join('[redacted]');
    try {
      return JSON.parse(out) as T;
    } catch {
      // A secret matched outside a string (a numeric key echoed as a number, `{"n":12345678}`):
      // the text is no longer JSON. Value by value then — strings, keys, and a number holding a
      // secret becomes the string "[redacted]".
      return JSON.parse(json, (_k, v: unknown) => this.value(v)) as T;
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

/** What a connection carries that is secret: header values, the URL's query credentials. */
interface SecretsOf {
  headers: Record<string, string>;
  redact?: readonly string[];
}

/** The secret values a connection carries: header values and the URL's query credentials. */
export function connectionSecrets(conn: SecretsOf): string[] {
  return [...Object.values(conn.headers), ...(conn.redact ?? [])];
}

/** Where a connection's secrets are read from: its settings and, signed in, its token values. */
type SecretSource = SecretsOf & { auth?: { secrets: () => readonly string[] } };

/** How long, and how many, secret values that left a connection stay redacted (retire, below). */
export interface RetireOptions {
  now?: (() => number) | undefined;
  keepMs?: number;
  keepMax?: number;
}

/**
 * The Redactor of one server connection (server-connection.ts), following its secrets. Every
 * text or result it redacts updates the list first (`source`), so a token the transport has just
 * loaded or renewed is known before anything the upstream sent reaches the agent, whichever
 * channel it came on (issue 10): results, errors, progress, log notices, task status, requests.
 */
export class ConnectionRedactor extends Redactor {
  /** The connection and token values the list was last made from (sync). */
  private from: { conn: SecretsOf; tokens: readonly string[] } | undefined;
  /** The connection's secret values now. */
  private current: readonly string[] = [];
  /**
   * Values that left the list (a renewed token, an edited header) and until when they stay in it:
   * the old value is still valid for a while (until its own expiry, the old connection serving
   * calls in flight), and a call sent with it can echo it after the list moved on.
   */
  private readonly retired = new Map<string, number>();
  private nextExpiry = Infinity;
  private readonly now: () => number;
  private readonly keepMs: number;
  private readonly keepMax: number;

  constructor(
    private readonly source?: () => SecretSource,
    o: RetireOptions = {},
  ) {
    super();
    this.now = o.now ?? Date.now;
    this.keepMs = o.keepMs ?? 10 * 60_000;
    this.keepMax = o.keepMax ?? 8;
  }

  /** A new or edited connection: its header values and query credentials. */
  follow(conn: SecretsOf): void {
    this.from = undefined;
    this.use(connectionSecrets(conn));
  }

  /**
   * Token values change on every refresh; an OAuth connection's current ones join the rest.
   * Runs before every redaction: the list is made again only when the connection or a token
   * value changed since, or a retired value's time ran out (issue 34: rebuilding it each time
   * was on the answer path).
   */
  sync(conn: SecretSource | undefined = this.source?.()): void {
    if (this.retired.size > 0 && this.now() >= this.nextExpiry) this.use(this.current);
    if (!conn?.auth) return;
    const tokens = conn.auth.secrets();
    const last = this.from;
    if (last?.conn === conn && sameValues(last.tokens, tokens)) return;
    this.from = { conn, tokens };
    this.use([...connectionSecrets(conn), ...tokens]);
  }

  override text(s: string): string {
    this.sync();
    return super.text(s);
  }

  override result<T extends object = CallToolResult>(r: T): T {
    this.sync();
    return super.result(r);
  }

  /** The list from the connection's values now, and the retired ones whose time has not run out. */
  private use(values: readonly string[]): void {
    const now = this.now();
    const kept = new Set(values);
    for (const v of this.current) {
      if (kept.has(v)) continue;
      this.retired.delete(v);
      this.retired.set(v, now + this.keepMs);
    }
    this.current = values;
    this.nextExpiry = Infinity;
    for (const [v, until] of this.retired) if (until <= now || kept.has(v)) this.retired.delete(v);
    // The oldest go first past the bound (a Map keeps insertion order; re-retiring re-inserts).
    for (const v of this.retired.keys()) {
      if (this.retired.size <= this.keepMax) break;
      this.retired.delete(v);
    }
    for (const until of this.retired.values()) this.nextExpiry = Math.min(this.nextExpiry, until);
    this.set([...values, ...this.retired.keys()]);
  }
}

/** A loop, not `every` with a closure: it runs twice on every call of a signed-in server (issue 34). */
function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
