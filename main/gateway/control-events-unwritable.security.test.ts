import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../common/contract/index.js';
import { subscribeEvents } from '../../common/http-control-client.js';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';

/**
 * The control event stream (/api/events) writes every core event with `JSON.stringify`, inside
 * the emitter's loop: a throw there went back into whatever emitted — the approval engine moving
 * a call on, a remote server's notice — and the subscribers after it missed the event. Servers'
 * values are bounded in depth where parsed (upstream/json-values.ts), so none reaches it today;
 * this holds the stream to never throwing if one ever does: the event it cannot write is left
 * out, and the stream goes on.
 */
describe('the control event stream and an event it cannot write', () => {
  let t: RemoteTestApp;
  beforeAll(async () => {
    t = await startRemoteApp();
  });
  afterAll(() => t.stop());

  it('leaves that event out, does not throw into the emitter, and writes the next', async () => {
    const token = new URL(t.started.controlUrl).hash.replace(/^#token=/, '');
    const seen: CoreEvent[] = [];
    let connected!: () => void;
    const open = new Promise<void>((r) => (connected = r));
    let next!: () => void;
    const later = new Promise<void>((r) => (next = r));
    const stop = subscribeEvents(
      t.started.url,
      token,
      (e) => {
        seen.push(e);
        if ((e as { marker?: string }).marker === 'after') next();
      },
      (up) => up && connected(),
    );
    try {
      await open;
      let deep: unknown = 1;
      for (let i = 0; i < 20_000; i++) deep = [deep];
      const unwritable = { type: 'state.changed', deep } as unknown as CoreEvent;
      expect(() => t.app.events.emit(unwritable)).not.toThrow();
      t.app.events.emit({ type: 'state.changed', marker: 'after' } as unknown as CoreEvent);
      await later;
      expect(seen.filter((e) => 'deep' in e)).toEqual([]);
    } finally {
      stop();
    }
  });
});
