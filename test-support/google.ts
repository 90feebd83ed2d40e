import { join } from 'node:path';
import { FakeGoogle, type FakeGoogleOptions } from '../e2e/fake-google/server.js';
import { CoreEvents } from '../main/platform/events.js';
import { Logger } from '../main/platform/log.js';
import { SettingsStore } from '../main/platform/settings.js';
import { GoogleAccounts } from '../main/google/accounts.js';
import { GoogleControl } from '../main/google/google-control.js';
import { MemoryVault } from '../main/platform/vault/vault.js';
import { tempDir } from './harness.js';
import type { GoogleConnectOptions, GoogleConnectView } from '../common/contract/index.js';
import { settledFlow } from './google-flow.js';

/** The Google accounts layer wired to a fake Google, a memory vault and real settings/logs on disk. */
export interface GoogleKit {
  fake: FakeGoogle;
  dir: string;
  settings: SettingsStore;
  vault: MemoryVault;
  events: CoreEvents;
  logger: Logger;
  accounts: GoogleAccounts;
  control: GoogleControl;
  /** URLs handed to the "system browser". */
  opened: string[];
  /** Connects an account end to end (consent auto-approved by the fake) and returns the final view. */
  connect: (options?: GoogleConnectOptions & { user?: string }) => Promise<GoogleConnectView>;
  close: () => Promise<void>;
}

export async function googleKit(
  o: {
    fake?: FakeGoogleOptions;
    connectTimeoutMs?: number;
    refreshAheadMs?: number;
    settings?: (s: SettingsStore) => void;
  } = {},
): Promise<GoogleKit> {
  const fake = new FakeGoogle(o.fake);
  await fake.start();
  const dir = tempDir('airlock-google-');
  const settings = new SettingsStore(join(dir, 'settings.json'));
  o.settings?.(settings);
  const vault = new MemoryVault();
  const events = new CoreEvents();
  const logger = new Logger({ dir: join(dir, 'logs'), stderr: false, level: 'debug' });
  const accounts = new GoogleAccounts({
    settings,
    vault,
    logger,
    env: fake.env(),
    ...(o.refreshAheadMs !== undefined ? { refreshAheadMs: o.refreshAheadMs } : {}),
  });
  const opened: string[] = [];
  const control = new GoogleControl({
    accounts,
    events,
    logger,
    openBrowser: (url) => void opened.push(url),
    ...(o.connectTimeoutMs ? { connectTimeoutMs: o.connectTimeoutMs } : {}),
  });
  await control.setGoogleClient({ json: fake.clientFile() });
  const connect = async (opts: GoogleConnectOptions & { user?: string } = {}) => {
    const { user, ...rest } = opts;
    if (user) fake.user = user;
    const start = await control.startGoogleConnect(rest);
    await browse(start.authUrl);
    return settledFlow(control, start.flowId);
  };
  return {
    fake,
    dir,
    settings,
    vault,
    events,
    logger,
    accounts,
    control,
    opened,
    connect,
    close: async () => {
      control.stop();
      await fake.stop();
    },
  };
}

/** What a browser does with the consent URL: follow the fake's redirect to the loopback listener. */
export async function browse(
  authUrl: string,
): Promise<{ callbackUrl: string; status: number; page: string }> {
  const consent = await fetch(authUrl, { redirect: 'manual' });
  const callbackUrl = consent.headers.get('location');
  if (consent.status !== 302 || !callbackUrl)
    throw new Error(`the fake did not redirect (HTTP ${consent.status}): ${await consent.text()}`);
  const res = await fetch(callbackUrl);
  return { callbackUrl, status: res.status, page: await res.text() };
}

/** The redirect target without visiting it (to replay or tamper with it). */
export async function consentRedirect(authUrl: string): Promise<URL> {
  const consent = await fetch(authUrl, { redirect: 'manual' });
  const location = consent.headers.get('location');
  if (!location) throw new Error(`the fake did not redirect (HTTP ${consent.status})`);
  return new URL(location);
}
