import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { httpControlClient } from '../../common/http-control-client.js';
import { FakeGoogle } from '../../e2e/fake-google/server.js';
import { filesContaining } from '../../e2e/helpers/files.js';
import { App } from '../app/app.js';
import { Logger } from '../platform/log.js';
import { connectClient, PATIENT_READS, tempDir, textOf } from '../../test-support/harness.js';
import { browse } from '../../test-support/google.js';
import { MemoryVault } from '../platform/vault/vault.js';
import { settledFlow } from '../../test-support/google-flow.js';

let app: App | undefined;
let fake: FakeGoogle | undefined;
afterEach(async () => {
  await app?.stop();
  await fake?.stop();
  app = fake = undefined;
});

describe('Google accounts in the running core', () => {
  it('connects over the HTTP control API, shows the account in airlock_status, and disconnects', async () => {
    fake = new FakeGoogle();
    await fake.start();
    const dataDir = tempDir('airlock-google-app-');
    const vault = new MemoryVault();
    const visits: Promise<unknown>[] = [];
    app = new App({
      dataDir,
      port: 0,
      vault,
      skipLock: true,
      logger: new Logger({ dir: join(dataDir, 'logs'), stderr: false, level: 'debug' }),
      // The "system browser" follows the fake's redirect to the loopback listener.
      google: { env: fake.env(), openBrowser: (url) => void visits.push(browse(url)) },
      readBounds: PATIENT_READS,
    });
    const started = await app.start();
    const { token } = await app.control.addAgent('test');
    const controlToken = new URL(started.controlUrl).hash.replace('#token=', '');
    const api = httpControlClient(started.url, controlToken);

    expect(await api.getGoogleClient()).toBeNull();
    await api.setGoogleClient({ json: fake.clientFile() });
    const start = await api.startGoogleConnect({ readOnly: true });
    expect(start.browserOpened).toBe(true);
    const view = await settledFlow(api, start.flowId);
    expect(view).toMatchObject({
      state: 'connected',
      account: { email: 'alice@example.com', readOnly: true },
    });
    await Promise.all(visits);

    const client = await connectClient(started.mcpUrl, token);
    const status = await client.callTool({ name: 'airlock_status', arguments: {} });
    expect(textOf(status)).toContain('Google accounts: alice@example.com (connected)');
    await client.close();

    const bundle = JSON.parse((await vault.get('google:alice@example.com'))!);
    for (const secret of [bundle.refreshToken, bundle.accessToken, fake.clientSecret]) {
      expect(filesContaining(dataDir, secret)).toEqual([]);
    }
    expect(JSON.stringify(await api.listGoogleAccounts())).not.toContain(bundle.refreshToken);

    expect(await api.disconnectGoogle('alice@example.com')).toMatchObject({ revoked: true });
    expect(fake.revoked).toEqual([bundle.refreshToken]);
    expect(await api.listGoogleAccounts()).toEqual([]);
    await expect(api.disconnectGoogle('alice@example.com')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
