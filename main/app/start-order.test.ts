import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Logger } from '../platform/log.js';
import { MemoryVault, VaultError } from '../platform/vault/vault.js';
import { App } from './app.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 34 (cold start): the keychain's first answer is mostly waiting on the Secret Service, so
 * the start sets up the database meanwhile; it still waits for the vault before the gateway
 * listens, and a vault that fails still stops the start with its own error.
 */
class SlowVault extends MemoryVault {
  /** Whether the database file existed by the time the vault answered its first read. */
  databaseWhileWaiting: boolean | null = null;
  constructor(private readonly database: string) {
    super();
  }
  override async get(key: string): Promise<string | null> {
    if (this.databaseWhileWaiting === null) {
      // Turns of the event loop, not time: the database opens synchronously right after the read
      // starts, or (as on main) only once it has been answered.
      for (let turn = 0; turn < 200 && !existsSync(this.database); turn++)
        await new Promise((resolve) => setImmediate(resolve));
      this.databaseWhileWaiting = existsSync(this.database);
    }
    return super.get(key);
  }
}

const dirs: string[] = [];
const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newApp(vault: (database: string) => MemoryVault): { app: App; vault: MemoryVault } {
  const dataDir = tempDir('airlock-start-order-');
  dirs.push(dataDir);
  const v = vault(join(dataDir, 'airlock.db'));
  const app = new App({
    dataDir,
    port: 0,
    vault: v,
    skipLock: true,
    logger: new Logger({ stderr: false }),
  });
  apps.push(app);
  return { app, vault: v };
}

describe('start: the keychain read overlaps the database setup (issue 34)', () => {
  it('opens the database while the control token is being read, then starts as before', async () => {
    const { app, vault } = newApp((db) => new SlowVault(db));
    expect(app.paths.database).toBe(join(app.paths.dir, 'airlock.db'));
    const started = await app.start();
    expect((vault as SlowVault).databaseWhileWaiting).toBe(true);
    expect(started.controlUrl).toMatch(/#token=alc/);
    expect(await vault.get('control-token')).toBe(started.controlUrl.split('#token=')[1]);
  });

  it('a locked vault still stops the start with its error, and nothing listens', async () => {
    const { app, vault } = newApp(() => new MemoryVault());
    vault.failure = new VaultError('VAULT_LOCKED', 'The OS keychain is locked.');
    await expect(app.start()).rejects.toMatchObject({ code: 'VAULT_LOCKED' });
    expect(app.started).toBeNull();
  });
});
