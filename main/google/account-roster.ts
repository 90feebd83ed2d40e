import type { GoogleAccountSettings } from '../platform/google-settings-schema.js';
import type { Logger } from '../platform/log.js';
import type { SettingsStore } from '../platform/settings.js';
import { GoogleToolError, type GoogleAccountInfo } from './account-access.js';

/**
 * The list of connected Google accounts and which one is the default, as
 * kept in settings (`google.accounts`, `google.defaultAccount`). No token
 * lives here (those are in the vault, see accounts.ts).
 *
 * The default is the one the user chose, else the first one connected. It stays
 * the default while it needs reconnecting: calls without `account` then get
 * OAUTH_REVOKED naming it, never another account's data (issue 18.2).
 */
export class AccountRoster {
  constructor(
    private readonly settings: SettingsStore,
    private readonly changed: () => void,
    private readonly logger?: Logger,
  ) {}

  /** Every account in settings, the default first, the rest in connection order. */
  all(): GoogleAccountInfo[] {
    const all = this.entries().map(info);
    const def = this.defaultEmail();
    const i = all.findIndex((a) => a.email === def);
    if (i > 0) all.unshift(...all.splice(i, 1));
    return all;
  }

  /** The settings entries in connection order (for views: connectedAt, detail). */
  entries(): GoogleAccountSettings[] {
    return this.settings.get().google.accounts;
  }

  defaultAccount(): GoogleAccountInfo | null {
    return this.all()[0] ?? null;
  }

  /**
   * The chosen default if it is still listed, else the first account in connection order —
   * whatever its state: a default that needs reconnecting is not silently replaced.
   */
  private defaultEmail(): string | undefined {
    const g = this.settings.get().google;
    const chosen = g.defaultAccount;
    if (chosen && g.accounts.some((a) => a.email === chosen)) return chosen;
    return g.accounts[0]?.email;
  }

  /** Makes a listed account the default (NO_ACCOUNT otherwise). */
  setDefault(email: string): GoogleAccountInfo {
    const acct = this.resolve(email);
    this.settings.update((s) => void (s.google.defaultAccount = acct.email));
    this.logger?.info('google default account set', { email: acct.email });
    this.changed();
    return acct;
  }

  /** The account asked for (case-insensitive), or the default; NO_ACCOUNT otherwise. */
  resolve(email?: string): GoogleAccountInfo {
    const all = this.all();
    const hit = email ? all.find((a) => a.email === email.toLowerCase()) : all[0];
    if (hit) return hit;
    const known = all.map((a) => a.email).join(', ') || 'none';
    throw new GoogleToolError(
      'NO_ACCOUNT',
      email
        ? `${email} is not connected to Airlock (connected: ${known}).`
        : 'No Google account is connected to Airlock. Connect one: airlock connect google.',
    );
  }

  of(email: string): GoogleAccountSettings | undefined {
    return this.entries().find((a) => a.email === email);
  }

  /** Adds or replaces an account's entry. */
  put(entry: GoogleAccountSettings): void {
    this.settings.update((s) => {
      const i = s.google.accounts.findIndex((a) => a.email === entry.email);
      if (i >= 0) s.google.accounts[i] = entry;
      else s.google.accounts.push(entry);
    });
    this.changed();
  }

  /** Removes an account; if it was the chosen default, the choice goes with it. */
  remove(email: string): void {
    this.settings.update((s) => {
      s.google.accounts = s.google.accounts.filter((a) => a.email !== email);
      if (s.google.defaultAccount === email) delete s.google.defaultAccount;
    });
    this.changed();
  }

  update(email: string, change: (a: GoogleAccountSettings) => void): void {
    if (!this.of(email)) return;
    this.settings.update((s) => {
      const a = s.google.accounts.find((x) => x.email === email);
      if (a) change(a);
    });
    this.changed();
  }

  markNeedsReconnect(email: string, detail: string): void {
    this.update(email, (a) => {
      a.state = 'needs_reconnect';
      a.detail = detail;
    });
    this.logger?.warn('google account needs reconnecting', { email, detail });
  }
}

function info(a: GoogleAccountSettings): GoogleAccountInfo {
  return { email: a.email, readOnly: a.readOnly, scopes: a.scopes, state: a.state };
}
