import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onStopSignals } from './stop-signals.js';

/** `airlock serve`: the first SIGINT/SIGTERM stops cleanly, a second one exits at once. */
describe('serve stop signals', () => {
  function setup() {
    const target = new EventEmitter();
    const log: string[] = [];
    const off = onStopSignals({
      stop: (s) => log.push(`stop ${s}`),
      exit: (code) => log.push(`exit ${code}`),
      write: (text) => log.push(text.trim()),
      target: target as unknown as Pick<NodeJS.Process, 'on' | 'off'>,
    });
    return { target, log, off };
  }

  it('first signal: the clean stop, once; no exit', () => {
    const { target, log } = setup();
    target.emit('SIGTERM');
    expect(log).toEqual(['stop SIGTERM']);
  });

  it('a second signal of either kind exits at once, saying so', () => {
    const a = setup();
    a.target.emit('SIGINT');
    a.target.emit('SIGINT');
    expect(a.log).toEqual([
      'stop SIGINT',
      'airlock: SIGINT again while stopping: exiting now; local servers get SIGKILL.',
      'exit 130',
    ]);
    const b = setup();
    b.target.emit('SIGINT');
    b.target.emit('SIGTERM');
    expect(b.log.slice(1)).toEqual([
      'airlock: SIGTERM again while stopping: exiting now; local servers get SIGKILL.',
      'exit 143',
    ]);
  });

  it('removing the handlers leaves none behind', () => {
    const { target, off } = setup();
    off();
    expect(target.listenerCount('SIGINT') + target.listenerCount('SIGTERM')).toBe(0);
  });
});
