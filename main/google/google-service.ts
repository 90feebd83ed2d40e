import type { CoreEvents } from '../platform/events.js';
import type { Logger } from '../platform/log.js';
import type { SettingsStore } from '../platform/settings.js';
import type { Vault } from '../platform/vault/vault.js';
import { GoogleAccounts } from './accounts.js';
import { EndpointError, overriddenEndpoints } from './endpoints.js';
import { GoogleControl } from './google-control.js';

/** Test and shell hooks for the Google layer, passed through `AppOptions.google`. */
export interface GoogleHooks {
  /** Opens the system browser for consent (the Electron shell passes shell.openExternal). */
  openBrowser?: (url: string) => void | Promise<void>;
  /** Consent deadline (default 5 minutes). */
  connectTimeoutMs?: number;
  /** Where AIRLOCK_GOOGLE_* overrides are read (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The Google accounts layer as the composition root sees it (issue 5):
 * `accounts` is what Gmail and Calendar tools use (GoogleAccountAccess),
 * `control` is the ControlApi part.
 */
export class GoogleService {
  readonly accounts: GoogleAccounts;
  readonly control: GoogleControl;

  constructor(d: {
    settings: SettingsStore;
    vault: Vault;
    events: CoreEvents;
    logger: Logger;
    hooks?: GoogleHooks;
  }) {
    this.accounts = new GoogleAccounts({
      settings: d.settings,
      vault: d.vault,
      logger: d.logger,
      ...(d.hooks?.env ? { env: d.hooks.env } : {}),
    });
    this.control = new GoogleControl({
      accounts: this.accounts,
      events: d.events,
      logger: d.logger,
      ...(d.hooks?.openBrowser ? { openBrowser: d.hooks.openBrowser } : {}),
      ...(d.hooks?.connectTimeoutMs ? { connectTimeoutMs: d.hooks.connectTimeoutMs } : {}),
    });
    // Tools appear and disappear with accounts; UIs refresh on state.changed.
    this.accounts.onChange(() => d.events.emit({ type: 'state.changed' }));
    try {
      const overridden = overriddenEndpoints(this.accounts.endpoints());
      // A leftover test override would send the user's consent somewhere else: say so.
      if (overridden.length)
        d.logger.warn('google endpoints overridden (testing aid)', { endpoints: overridden });
    } catch (err) {
      if (err instanceof EndpointError)
        d.logger.error('invalid google endpoint override', { error: err.message });
      else throw err;
    }
  }

  /** For the airlock_status tool: address and state, default first. */
  statusAccounts(): { email: string; state: string; readOnly: boolean }[] {
    return this.accounts
      .accounts()
      .map((a) => ({ email: a.email, state: a.state, readOnly: a.readOnly }));
  }

  stop(): void {
    this.control.stop();
  }
}
