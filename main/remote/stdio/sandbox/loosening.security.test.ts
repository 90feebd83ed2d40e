import { mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { httpControlClient } from '../../../../common/http-control-client.js';
import { refuseLoosening } from '../../../cli/confirm-in-window.js';
import { startRemoteApp, type RemoteTestApp } from '../../../../test-support/remote-app.js';
import { tempDir } from '../../../../test-support/temp-dir.js';

/**
 * Issue 35 with issue 17.7: widening a local server's sandbox from outside Airlock's window (the
 * CLI, anything with the control token) waits for the user there; narrowing applies at once.
 */
const require = createRequire(import.meta.url);
const HOSTILE = fileURLToPath(
  new URL('../../../../test-support/hostile-stdio-server.mjs', import.meta.url),
);
const NODE_MODULES = realpathSync(
  require.resolve('@modelcontextprotocol/server').replace(/(\/node_modules)\/.*$/, '$1'),
);

let t: RemoteTestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('widening a sandbox is loosening', () => {
  it('waits for the window over the control API; narrowing does not; without Airlock running the CLI refuses', async () => {
    const home = realpathSync(tempDir('airlock-loosen-'));
    for (const d of ['project', 'docs']) mkdirSync(join(home, d));
    symlinkSync(join(home, 'docs'), join(home, 'project', 'out'));
    t = await startRemoteApp({ sandbox: { home } });
    await t.app.control.addRemote({
      name: 'srv',
      stdio: {
        command: process.execPath,
        args: [HOSTILE],
        cwd: join(home, 'project'),
        sandbox: { read: [NODE_MODULES], network: 'none' },
      },
    });
    const token = new URL(t.started.controlUrl).hash.replace('#token=', '');
    const cli = httpControlClient(t.started.url, token);
    const settings = () => readFileSync(join(t!.dataDir, 'settings.json'), 'utf8');
    const before = settings();
    for (const sandbox of [
      { write: [join(home, 'project'), join(home, 'docs')] },
      { read: [NODE_MODULES, join(home, 'docs')] },
      { network: 'any' as const },
      { hosts: ['api.github.com'] },
      { allowUnsandboxed: true },
      // Out of its folder by `..` or by a link inside it: judged where the launcher would bind.
      { read: [NODE_MODULES, `${home}/project/../docs`] },
      { read: [NODE_MODULES, join(home, 'project', 'out')] },
    ])
      await expect(
        cli.updateRemote('srv', { sandbox }),
        JSON.stringify(sandbox),
      ).rejects.toMatchObject({
        code: 'CONFIRM_IN_WINDOW',
        message: expect.stringMatching(/let local server "srv" (read|reach|run without)/),
      });
    expect(settings()).toBe(before);
    await expect(
      refuseLoosening(t.app.control, t.app.serverLoosening).updateRemote('srv', {
        sandbox: { network: 'any' },
      }),
    ).rejects.toThrow(
      /not running, so there is no window to confirm this in: let local server "srv" reach any host/,
    );

    // Narrowing: at once.
    const narrowed = await cli.updateRemote('srv', { sandbox: { write: [] } });
    expect(narrowed.stdio!.sandbox.write).toEqual([]);
    // Back to what it had is widening again.
    await expect(
      cli.updateRemote('srv', { sandbox: { write: [join(home, 'project')] } }),
    ).rejects.toMatchObject({
      code: 'CONFIRM_IN_WINDOW',
    });
  });
});
