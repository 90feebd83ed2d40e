import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Logger } from '../platform/log.js';
import { keepServingOnRejection } from './kept-serving.js';

/**
 * `airlock serve` keeps serving past a promise rejected with no handler (Node's default exits):
 * the rejection is logged by name and message, cut short, and the handler comes off at stop.
 */
describe('keepServingOnRejection', () => {
  it('logs an unhandled rejection instead of letting Node exit, and comes off again', () => {
    const target = new EventEmitter();
    const logged: [string, Record<string, unknown>][] = [];
    const off = keepServingOnRejection(
      { error: (m, f) => logged.push([m, f!]), redact: (s) => s },
      target as unknown as Pick<NodeJS.Process, 'on' | 'off'>,
    );
    expect(target.listenerCount('unhandledRejection')).toBe(1);
    target.emit('unhandledRejection', new RangeError('Maximum call stack size exceeded'));
    target.emit('unhandledRejection', 'x'.repeat(1000));
    expect(logged).toEqual([
      [
        'unhandled rejection (kept serving)',
        { error: 'RangeError: Maximum call stack size exceeded' },
      ],
      ['unhandled rejection (kept serving)', { error: 'string' }],
    ]);
    off();
    expect(target.listenerCount('unhandledRejection')).toBe(0);
  });

  it('is what serve installs: a real unhandled rejection in this process is logged', async () => {
    const logged: string[] = [];
    const off = keepServingOnRejection({
      error: (_m, f) => logged.push(String(f!.error)),
      redact: (s) => s,
    });
    try {
      const seen = new Promise<void>((r) => process.once('unhandledRejection', () => r()));
      void Promise.reject(new Error('stray'));
      await seen;
      expect(logged).toContain('Error: stray');
    } finally {
      off();
    }
  });

  it('redacts a secret before cutting the message short: no part of it survives the cut', () => {
    const secret = 'tok_' + 'S'.repeat(60);
    const logger = new Logger({ stderr: false });
    logger.registerSecret(secret);
    const target = new EventEmitter();
    const logged: string[] = [];
    keepServingOnRejection(
      { error: (_m, f) => logged.push(String(f!.error)), redact: (s) => logger.redact(s) },
      target as unknown as Pick<NodeJS.Process, 'on' | 'off'>,
    );
    // The secret straddles the 300th character: cut first, its first part would be logged whole
    // and the line's own redaction would no longer see the secret.
    target.emit('unhandledRejection', new Error(`${'x'.repeat(270)} Bearer ${secret} after`));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('[redacted]');
    expect(logged[0]).not.toContain('tok_');
  });
});
