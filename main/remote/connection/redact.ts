import type { CallToolResult } from '../../tools/types.js';
import { Redactor } from '../../platform/redactor.js';

// The redaction itself is the logger's too (platform/log.ts): one place, platform/redactor.ts.
export { Redactor };

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
