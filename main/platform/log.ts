import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Redactor } from './redactor.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * JSON-lines logger to stderr and `<data>/logs/airlock.log`. stdout is
 * reserved for the machine-readable ready line of `airlock serve`.
 *
 * Secrets are never passed to the logger on purpose; `redact` is a second
 * line of defence that replaces any registered secret value wherever it
 * appears in a line — as it stands there, JSON-escaped (a secret holding `"` or `\`), with the
 * same Redactor a server connection uses on what reaches the agent (platform/redactor.ts).
 */
export class Logger {
  private readonly secrets = new Set<string>();
  private readonly redactor = new Redactor();
  private readonly file: string | null;

  constructor(private readonly options: { dir?: string; level?: LogLevel; stderr?: boolean } = {}) {
    if (options.dir) {
      mkdirSync(options.dir, { recursive: true, mode: 0o700 });
      this.file = join(options.dir, 'airlock.log');
    } else {
      this.file = null;
    }
  }

  registerSecret(value: string): void {
    if (value.length < 8 || this.secrets.has(value)) return;
    this.secrets.add(value);
    this.redactor.set([...this.secrets]);
  }

  forgetSecret(value: string): void {
    if (this.secrets.delete(value)) this.redactor.set([...this.secrets]);
  }

  /**
   * `text` with every registered secret replaced. For a caller that shortens text before logging
   * it: redact first, then cut, or the cut may leave part of a secret the line's redaction no
   * longer recognises.
   */
  redact(text: string): string {
    return this.redactor.text(text);
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    this.write('debug', msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.write('info', msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.write('warn', msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.write('error', msg, fields);
  }

  private write(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
    if (ORDER[level] < ORDER[this.options.level ?? 'info']) return;
    // Redacted as the JSON text it is: the raw value of a secret with `"` or `\` is not in it.
    const line = this.redactor.json(
      JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields }),
    );
    if (this.options.stderr !== false) process.stderr.write(line + '\n');
    if (this.file) {
      try {
        appendFileSync(this.file, line + '\n', { mode: 0o600 });
      } catch {
        // Logging must never take the gateway down (disk full, folder removed).
      }
    }
  }
}
