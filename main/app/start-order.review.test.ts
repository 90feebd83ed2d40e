import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Logger } from '../platform/log.js';
import { MemoryVault, VaultError } from '../platform/vault/vault.js';
import { App } from './app.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Review of issue 34's overlapped keychain read (app.ts): the start fails first for another
 * reason (the database cannot be opened) while the control token's read is still pending, and
 * that read then fails too. The start must fail with the database's error, the late vault
 * failure must not surface as an unhandled rejection (vitest fails the run on one), and a
 * second start with the database fixed and the vault answering must succeed.
 */
class GatedVault extends MemoryVault {
  private release!: () => void;
  readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  readonly answered: Promise<void>;
  private answer!: () => void;
  gated = true;
  constructor() {
    super();
    this.answered = new Promise<void>((resolve) => (this.answer = resolve));
  }
  open(): void {
    this.release();
  }
  override async get(key: string): Promise<string | null> {
    if (!this.gated) return super.get(key);
    await this.gate;
    try {
      return await super.get(key);
    } finally {
      queueMicrotask(() => this.answer());
    }
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('start: the overlapped token read when the start fails for another reason first', () => {
  it('fails with the database error, leaves no unhandled rejection, and the next start works', async () => {
    const dataDir = tempDir('airlock-start-review-');
    dirs.push(dataDir);
    // A directory where the database file should be: openDatabase throws.
    mkdirSync(join(dataDir, 'airlock.db'));
    const vault = new GatedVault();
    vault.failure = new VaultError('VAULT_LOCKED', 'The OS keychain is locked.');
    const options = {
      dataDir,
      port: 0,
      vault,
      skipLock: true,
      logger: new Logger({ stderr: false }),
    };
    const app = new App(options);
    const failed = await app.start().then(
      () => null,
      (e: unknown) => e,
    );
    expect(failed).not.toBeNull();
    expect((failed as { code?: string }).code).not.toBe('VAULT_LOCKED');
    expect(app.started).toBeNull();
    // Now the pending token read fails (after the start already gave up).
    vault.open();
    await vault.answered.catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));

    rmSync(join(dataDir, 'airlock.db'), { recursive: true });
    vault.failure = null;
    vault.gated = false;
    const again = new App(options);
    const started = await again.start();
    expect(started.controlUrl).toMatch(/#token=alc/);
    await again.stop();
    expect(readdirSync(dataDir)).toContain('airlock.db');
  });
});
