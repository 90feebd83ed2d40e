import type { CallToolResult } from '../../tools/types.js';

/**
 * Replaces known secret values (a server's bearer token and header values)
 * wherever they would leave Airlock: status details, error texts, and results
 * — an upstream that echoes our credential back must not hand it to the agent.
 * A second line of defence: nothing here is meant to contain a secret.
 */
export class Redactor {
  private secrets: string[] = [];

  set(values: readonly string[]): void {
    // Very short values would redact ordinary words; they are not credentials anyone should use.
    const all = values.flatMap((v) => [v, v.replace(/^Bearer\s+/i, '')]);
    this.secrets = [...new Set(all)]
      .filter((v) => v.length >= 6)
      .sort((a, b) => b.length - a.length);
  }

  text(s: string): string {
    let out = s;
    for (const secret of this.secrets)
      if (out.includes(secret)) out = out.split(secret).join('[redacted]');
    return out;
  }

  result<T extends object = CallToolResult>(r: T): T {
    if (this.secrets.length === 0) return r;
    const json = JSON.stringify(r);
    if (!this.secrets.some((s) => json.includes(s))) return r;
    // JSON-escape the secret too, so one containing quotes or backslashes is still found.
    let out = json;
    for (const secret of this.secrets)
      out = out.split(JSON.stringify(secret).slice(1, -1)).join('[redacted]');
    return JSON.parse(out) as T;
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

/** The Redactor of one server connection (server-connection.ts), following its secrets. */
export class ConnectionRedactor extends Redactor {
  /** The connection and token values the list was last made from (sync). */
  private from: { conn: SecretsOf; tokens: readonly string[] } | undefined;

  /** A new or edited connection: its header values and query credentials. */
  follow(conn: SecretsOf): void {
    this.from = undefined;
    this.set(connectionSecrets(conn));
  }

  /**
   * Token values change on every refresh; an OAuth connection's current ones join the rest.
   * Runs after every call (remote-calls.ts): the list is made again only when the connection or
   * a token value changed since (issue 34: rebuilding it each time was on the answer path).
   */
  sync(conn: SecretsOf & { auth?: { secrets: () => string[] } }): void {
    if (!conn.auth) return;
    const tokens = conn.auth.secrets();
    const last = this.from;
    if (last?.conn === conn && sameValues(last.tokens, tokens)) return;
    this.from = { conn, tokens };
    this.set([...connectionSecrets(conn), ...tokens]);
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
