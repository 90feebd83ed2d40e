import { afterEach, describe, expect, it, vi } from 'vitest';
import { closedPort } from '../../../test-support/closed-port.js';
import type { Logger } from '../../platform/log.js';
import { FakeUpstream } from '../../../test-support/fake-upstream.js';
import { retryDelay } from './restart-backoff.js';
import { RemoteSource } from '../remote-source.js';
import { StdioProcessLog } from '../stdio/process-log.js';
import { DEFAULT_TIMINGS } from './timings.js';

/**
 * Issue 29, item 8: a server that cannot be reached is retried with a wait that grows to a cap,
 * and the log says so once per change of state — not once per retry. Time is driven by fake
 * timers (no real waiting); the connection failures are real (a closed port).
 */
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

type Line = { level: string; msg: string; fields?: Record<string, unknown> };
function capture(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at =
    (level: string) =>
    (msg: string, fields?: Record<string, unknown>): void =>
      void lines.push({ level, msg, ...(fields ? { fields } : {}) });
  const logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    registerSecret: () => {},
    forgetSecret: () => {},
  } as unknown as Logger;
  return { logger, lines };
}

describe('reconnect back-off (issue 29, item 8)', () => {
  it('grows for every kind of failure, refused connections included, up to the cap', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5); // no jitter
    const t = DEFAULT_TIMINGS;
    for (const [status, network] of [
      [undefined, 'ECONNREFUSED'],
      [undefined, 'ENOTFOUND'],
      [503, undefined],
      [undefined, undefined],
    ] as const) {
      const delays = Array.from({ length: 16 }, (_, n) => retryDelay(t, n, status, network));
      for (let i = 1; i < delays.length; i++)
        expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]!);
      expect(delays[0]).toBeLessThanOrEqual(t.backoffInitialMs);
      expect(delays.at(-1)).toBe(t.backoffMaxMs);
      expect(Math.max(...delays)).toBe(t.backoffMaxMs);
    }
    // A restarted server (refused for a little while) is still found again within seconds.
    const refused = Array.from({ length: 6 }, (_, n) =>
      retryDelay(t, n, undefined, 'ECONNREFUSED'),
    );
    expect(Math.max(...refused)).toBeLessThanOrEqual(t.healthIntervalMs);
  });

  it('an unreachable server: one warning when it goes down, none per retry, one line when it is back', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const port = await closedPort();
    const { logger, lines } = capture();
    const source = new RemoteSource(
      { name: 'gone', url: `http://127.0.0.1:${port}/mcp`, headers: {} },
      { logger, version: 'test' },
    );
    const failed = () =>
      new Promise<void>((resolve) => {
        const off = source.onChange(() => {
          if (source.status().state === 'error') {
            off();
            resolve();
          }
        });
      });
    const waits: number[] = [];
    let next = failed();
    source.start();
    await next;
    for (let i = 0; i < 10; i++) {
      const retry = lines.filter((l) => l.msg === 'remote server retry').at(-1);
      expect(retry, 'each failure schedules a retry, logged at debug').toBeDefined();
      const wait = retry!.fields!.inMs as number;
      waits.push(wait);
      next = failed();
      await vi.advanceTimersByTimeAsync(wait);
      await next;
    }
    // It comes back: one line says so.
    const up = new FakeUpstream({
      tools: [{ name: 'hello', annotations: { readOnlyHint: true } }],
    });
    await up.start(port);
    const ready = new Promise<void>((resolve) => {
      const off = source.onChange(() => {
        if (source.status().state === 'ready') {
          off();
          resolve();
        }
      });
    });
    const last = lines.filter((l) => l.msg === 'remote server retry').at(-1)!;
    await vi.advanceTimersByTimeAsync(last.fields!.inMs as number);
    await ready;
    await source.stop();
    await up.stop();
    expect(lines.filter((l) => l.level === 'info')).toMatchObject([
      { msg: 'remote server connected', fields: { server: 'gone' } },
    ]);
    const warnings = lines.filter((l) => l.level === 'warn' || l.level === 'error');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      msg: 'remote server unavailable',
      fields: { server: 'gone', detail: expect.stringMatching(/refused|unreachable/i) },
    });
    // The waits grew (jitter aside) and stayed under the cap.
    expect(waits.at(-1)!).toBeGreaterThan(waits[0]! * 4);
    for (const w of waits) expect(w).toBeLessThanOrEqual(DEFAULT_TIMINGS.backoffMaxMs * 1.2);
  });
});

describe('a local server’s stderr in its status text', () => {
  it('is cut at line starts, never inside a word', () => {
    const { logger } = capture();
    const m = new StdioProcessLog('npx', logger);
    const lines = [
      'npm error code E404',
      `npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fno-such-server - Not found`,
      'npm error 404',
      `npm error 404  '@acme/no-such-server-with-a-long-name@*' is not in this registry.`,
      'npm error 404',
      'npm error 404 Note that you can also install from a',
      'npm error 404 tarball, folder, http url, or git url (or from a registry that has it, with --registry).',
      'npm error 404 Note that you can also install from a tarball, folder, http url, or git url.',
      `npm error A complete log of this run can be found in: /home/someone/.npm/_logs/2025-01-01T00_00_00_000Z-debug-0.log (see also the npm docs on registries and scopes)`,
    ];
    for (const l of lines) m.stderr(l);
    expect(lines.slice(-5).join(' | ').length).toBeGreaterThan(400); // too long to keep whole
    const tail = m.stderrTail();
    expect(tail.length).toBeLessThanOrEqual(400);
    // It is the last few lines, whole: it starts where one of them starts.
    expect(lines.some((l) => tail.startsWith(l))).toBe(true);
    expect(tail.endsWith(lines.at(-1)!)).toBe(true);
  });

  it('one very long line keeps its start, marked as cut', () => {
    const { logger } = capture();
    const m = new StdioProcessLog('x', logger);
    m.stderr(`Error: ${'word '.repeat(200)}`);
    const tail = m.stderrTail();
    expect(tail.startsWith('Error: word')).toBe(true);
    expect(tail.endsWith('…')).toBe(true);
    expect(tail.length).toBeLessThanOrEqual(400);
  });
});
