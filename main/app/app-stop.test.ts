import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, tempDir, type TestApp } from '../../test-support/harness.js';

/**
 * App.stop ends what it started even when one part fails to stop: a remote server's stop that
 * throws must not leave the database open and the instance lock held, which the next start on
 * the same data directory would then find (it takes over a dead holder's lock, but not a live
 * one: the desktop app that keeps running after a failed stop would lock the user out).
 */
const apps: TestApp[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const t of apps.splice(0)) await t.stop().catch(() => {});
});

describe('App.stop when a part fails to stop', () => {
  it("a remote servers' stop that throws: still resolves, closes the database, releases the lock", async () => {
    const dataDir = tempDir();
    const first = await startTestApp({ dataDir });
    const loader = (first.app as unknown as { remoteLoader: { stop(): Promise<void> } })
      .remoteLoader;
    expect(loader).toBeTruthy();
    vi.spyOn(loader, 'stop').mockRejectedValue(new Error('a server would not stop'));
    await expect(first.app.stop()).resolves.toBeUndefined();
    expect(loader.stop).toHaveBeenCalledTimes(1);
    // The lock and server.json are gone (a lock left by a process still alive, such as the
    // desktop app after a failed stop, refuses every other start), and a new App starts on the
    // same data directory with what the first one kept.
    expect(existsSync(join(dataDir, 'airlock.lock'))).toBe(false);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
    const second = await startTestApp({ dataDir });
    apps.push(second);
    expect((await second.app.control.listAgents()).map((a) => a.name)).toContain('test');
  });
});
