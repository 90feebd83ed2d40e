import { mkdirSync, realpathSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Logger } from '../../../platform/log.js';
import { childEnv } from '../env.js';
import { sandboxHost } from './host-facts.js';
import { SandboxLauncher } from './launcher.js';
import { tempDir } from '../../../../test-support/temp-dir.js';

/**
 * Issue 35: a grant inside a folder the server may write is judged (remote-loosening.ts) and
 * bound where it really is; the server can swap it for a link out of that folder between its
 * starts, so the next start refuses rather than binding what the link points at.
 */
describe.skipIf(process.platform !== 'linux')('SandboxLauncher grants', () => {
  it('a grant inside a writable folder that became a link out of it stops the start', async () => {
    const root = realpathSync(tempDir('airlock-launch-'));
    const home = join(root, 'home');
    const project = join(root, 'project');
    const secret = join(root, 'secret');
    for (const d of [home, join(project, 'docs'), secret]) mkdirSync(d, { recursive: true });
    const host = sandboxHost(
      { dataDir: join(root, 'data') },
      { home, homesRoot: join(root, 'homes'), bwrap: '/bin/true' },
    );
    const launcher = new SandboxLauncher(host, new Logger({ stderr: false }));
    const perm = {
      read: [join(project, 'docs')],
      write: [project],
      network: 'none' as const,
      hosts: [],
      allowUnsandboxed: false,
    };
    const launch = { command: '/bin/true', args: [], cwd: project, env: childEnv({}) };
    await expect(launcher.prepare('s', launch, perm)).resolves.toBeDefined();
    renameSync(join(project, 'docs'), join(project, 'old-docs'));
    symlinkSync(secret, join(project, 'docs'));
    await expect(launcher.prepare('s', launch, perm)).rejects.toThrow(
      `not started: ${join(project, 'docs')}, inside ${project} which it may write, now leads out of it`,
    );
    await launcher.closeAll();
  });
});
