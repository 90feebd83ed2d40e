import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Logger, type LogLevel } from '../platform/log.js';
import { startTestApp, tempDir, type TestApp } from '../../test-support/harness.js';

/**
 * Issue 27, item 8: fuzzing the agent endpoint left 451 error-level log lines, most of them
 * "request failed … aborted" — a client that hangs up in the middle of its request. That is
 * the client's business, not a failure of Airlock's: it is logged at debug, so the error log
 * keeps meaning "something broke here".
 */
class RecordingLogger extends Logger {
  readonly lines: { level: LogLevel; msg: string; fields?: Record<string, unknown> }[] = [];
  private waiters: (() => void)[] = [];
  private note(level: LogLevel, msg: string, fields?: Record<string, unknown>) {
    this.lines.push({ level, msg, ...(fields ? { fields } : {}) });
    for (const w of this.waiters.splice(0)) w();
  }
  override debug(msg: string, fields?: Record<string, unknown>) {
    this.note('debug', msg, fields);
    super.debug(msg, fields);
  }
  override info(msg: string, fields?: Record<string, unknown>) {
    this.note('info', msg, fields);
    super.info(msg, fields);
  }
  override warn(msg: string, fields?: Record<string, unknown>) {
    this.note('warn', msg, fields);
    super.warn(msg, fields);
  }
  override error(msg: string, fields?: Record<string, unknown>) {
    this.note('error', msg, fields);
    super.error(msg, fields);
  }
  /** Resolves with the first line (from `from` on) that `match` accepts. */
  async next(from: number, match: (l: RecordingLogger['lines'][number]) => boolean) {
    for (;;) {
      const found = this.lines.slice(from).find(match);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

let t: TestApp;
let logger: RecordingLogger;
beforeAll(async () => {
  const dir = tempDir();
  logger = new RecordingLogger({ dir: `${dir}/logs`, stderr: false, level: 'debug' });
  t = await startTestApp({ dataDir: dir, app: { logger } });
});
afterAll(async () => {
  await t.stop();
});

/** Sends the head and part of a body, then hangs up. */
function hangUpMidBody(path: string, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(t.started.port, '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${t.started.port}\r\n` +
          `authorization: Bearer ${token}\r\ncontent-type: application/json\r\n` +
          `accept: application/json, text/event-stream\r\ncontent-length: 4000\r\n\r\n` +
          '{"jsonrpc":"2.0","id":1,"method":"tools/list"',
        () => {
          socket.destroy();
          resolve();
        },
      );
    });
    socket.on('error', reject);
  });
}

describe('a client that hangs up is not an error', () => {
  it('a request body cut off by the client is logged at debug, not as "request failed"', async () => {
    for (let i = 0; i < 5; i++) {
      const from = logger.lines.length;
      await hangUpMidBody('/mcp', t.token);
      const line = await logger.next(from, (l) => /request/.test(l.msg));
      expect(line.level, JSON.stringify(line)).toBe('debug');
      expect(line.msg).toMatch(/client went away/);
    }
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
    // And the server goes on answering.
    expect((await fetch(`${t.started.url}/healthz`)).status).toBe(200);
  });
});
