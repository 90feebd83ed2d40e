import { chmodSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Logger } from '../platform/log.js';
import { sampleHome } from '../../test-support/client-configs.js';
import { ClientsControl } from './clients-control.js';

/**
 * `airlock clients connect` writes the agent's bearer token into another app's config file.
 * Apps create those files 0644 and home folders are often 0755: kept as they were, any other
 * user of the machine could read the token and call the gateway (it listens on 127.0.0.1,
 * which every local user reaches) as that app. The file, and the backup of the file as it was
 * (a reconnect's backup holds the same, stable token), keep the owner's bits only.
 */
describe.skipIf(process.platform === 'win32')('clients connect: the file with the token', () => {
  it('drops group and other access from the edited file and its backup', async () => {
    const h = sampleHome();
    const c = new ClientsControl({
      env: h.env,
      logger: new Logger({ stderr: false }),
      mcpUrl: () => 'http://127.0.0.1:47999/mcp',
      listServers: async () => [],
      addServer: async () => {
        throw new Error('no import in this test');
      },
      agentToken: async () => 'alk_secret_token_for_cursor',
    });
    const path = h.paths.cursor;
    chmodSync(path, 0o644);
    const first = await c.connectClient('cursor');
    expect(readFileSync(path, 'utf8')).toContain('alk_secret_token_for_cursor');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(first.files[0]!.backup!).mode & 0o777).toBe(0o600);

    // A reconnect (the URL moved) backs up a file that already holds the token.
    chmodSync(path, 0o664);
    const c2 = new ClientsControl({
      env: h.env,
      logger: new Logger({ stderr: false }),
      mcpUrl: () => 'http://127.0.0.1:48000/mcp',
      listServers: async () => [],
      addServer: async () => {
        throw new Error('no import in this test');
      },
      agentToken: async () => 'alk_secret_token_for_cursor',
    });
    const second = await c2.connectClient('cursor');
    const backup = second.files[0]!.backup!;
    expect(readFileSync(backup, 'utf8')).toContain('alk_secret_token_for_cursor');
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    for (const n of readdirSync(dirname(path)))
      expect(statSync(join(dirname(path), n)).mode & 0o077).toBe(0);
  });
});
