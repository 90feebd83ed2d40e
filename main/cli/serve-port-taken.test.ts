import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { eventually } from '../../test-support/eventually.js';
import { startRemoteApp } from '../../test-support/remote-app.js';
import { tempDir } from '../../test-support/temp-dir.js';
import { Gateway } from '../gateway/http-server.js';
import { groupsGone } from '../remote/stdio/process-group.js';
import { serve } from './serve.js';

/**
 * `airlock serve` whose port is taken exits 3 with what to do (serve.ts portInUse) — after its
 * local servers had started. They are stopped as a normal stop stops them: stdin closed, SIGTERM,
 * the grace, then SIGKILL (process-group.ts endGroup). Before, a server still starting (every one,
 * this early) was met only by the SIGKILL safety net (stdio-config.ts end): no chance to exit, no
 * sandbox clean-up. Here a real local server records what it got; it never answers `initialize`,
 * as one still starting (an `npx` download) does not. The port check waits for the server to be
 * up (its "started" line), so what is decided is the stop, not how fast the server started.
 */
const cleanup = cleanupAfterEach();
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function recorder(record: string): string {
  const f = JSON.stringify(record);
  return `const fs = require('node:fs');
process.on('SIGTERM', () => { fs.appendFileSync(${f}, 'SIGTERM\\n'); process.exit(0); });
process.stdin.on('end', () => fs.appendFileSync(${f}, 'stdin-end\\n'));
process.stdin.resume();
fs.appendFileSync(${f}, 'started ' + process.pid + '\\n');
setInterval(() => {}, 1000);`;
}

const lines = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

describe.runIf(process.platform === 'linux')('airlock serve on a port in use', () => {
  it('exits 3 with its message, and its local servers get the normal stop (stdin closed, SIGTERM), not SIGKILL alone', async () => {
    const dir = tempDir('airlock-port-taken-');
    const record = join(dir, 'record');
    const dataDir = join(dir, 'data');
    // The server saved in settings, as `airlock remote add` saves it; no bubblewrap, so its pid
    // and signals are its own (as serve-forced-exit.test.ts).
    const first = await startRemoteApp({ dataDir, sandbox: { bwrap: undefined } });
    // It never answers, so the add's wait for it is not awaited: saved once it runs.
    const adding = first.app.control
      .addRemote({
        name: 'recorder',
        stdio: {
          command: process.execPath,
          args: ['-e', recorder(record)],
          sandbox: { allowUnsandboxed: true },
        },
      })
      .catch(() => undefined);
    await eventually(() => expect(lines(record)[0]).toMatch(/^started \d+$/));
    await first.stop();
    await adding;
    writeFileSync(record, '');

    const taken: Server = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => taken.close(r)));
    const port = (taken.address() as { port: number }).port;

    vi.stubEnv('AIRLOCK_VAULT', 'file');
    vi.stubEnv('AIRLOCK_VAULT_PASSPHRASE', '');
    vi.stubEnv('AIRLOCK_VAULT_KEY_FILE', join(dir, 'vault.key'));
    vi.stubEnv('PATH', dirname(process.execPath)); // no bwrap: the server runs as itself
    const listen = Gateway.prototype.start;
    vi.spyOn(Gateway.prototype, 'start').mockImplementation(async function (
      this: Gateway,
      p: number,
    ) {
      await eventually(() => expect(lines(record)[0]).toMatch(/^started \d+$/));
      return listen.call(this, p);
    });
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });

    const code = await serve({ port, dataDir, youngGeneration: false });
    vi.mocked(process.stderr.write).mockRestore();

    expect(code).toBe(3);
    expect(stderr).toContain(`Port ${port} on 127.0.0.1 is already in use.`);
    const pid = Number(lines(record)[0]!.split(' ')[1]);
    // Gone, and it was told: its stdin closed or SIGTERM came (both, as endGroup sends them) —
    // a SIGKILL alone leaves nothing after "started".
    expect(await groupsGone([pid])).toBe(true);
    expect(lines(record).slice(1)).not.toEqual([]);
    expect(
      lines(record)
        .slice(1)
        .every((l) => l === 'SIGTERM' || l === 'stdin-end'),
    ).toBe(true);
  }, 120_000);
});
