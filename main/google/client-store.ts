import type { SettingsStore } from '../platform/settings.js';
import type { Vault } from '../platform/vault/vault.js';
import { CLIENT_SECRET_KEY, type GoogleClientCredentials } from './client-config.js';

export class ClientMissingError extends Error {
  override name = 'ClientMissingError';
  constructor() {
    super(
      'No Google OAuth client is set up. Import your "Desktop app" client first: airlock google client import client_secret_….json (docs/google.md).',
    );
  }
}

/**
 * The user's OAuth client (issue 5, item 1): the ID in settings, the secret
 * in the vault. Google calls a Desktop client's secret "not treated as a
 * secret", but it is still a credential of the user's project, so it is kept
 * like one.
 */
export class GoogleClientStore {
  private secret: { clientId: string; value: string } | null = null;

  constructor(private readonly d: { settings: SettingsStore; vault: Vault }) {}

  info(): { clientId: string; projectId?: string; importedAt: string } | null {
    return this.d.settings.get().google.client ?? null;
  }

  /** The ID and secret; throws ClientMissingError when none is set up, VaultError when the keychain fails. */
  async credentials(): Promise<GoogleClientCredentials> {
    const info = this.info();
    if (!info) throw new ClientMissingError();
    if (this.secret?.clientId !== info.clientId) {
      const value = await this.d.vault.get(CLIENT_SECRET_KEY);
      if (!value) throw new ClientMissingError();
      this.secret = { clientId: info.clientId, value };
    }
    return {
      clientId: info.clientId,
      clientSecret: this.secret.value,
      ...(info.projectId ? { projectId: info.projectId } : {}),
    };
  }

  async hasSecret(): Promise<boolean> {
    return (await this.d.vault.get(CLIENT_SECRET_KEY)) !== null;
  }

  /** Secret first, then settings: a keychain failure leaves both as they were. */
  async save(c: GoogleClientCredentials): Promise<void> {
    await this.d.vault.set(CLIENT_SECRET_KEY, c.clientSecret);
    this.secret = null;
    this.d.settings.update((s) => {
      s.google.client = {
        clientId: c.clientId,
        ...(c.projectId ? { projectId: c.projectId } : {}),
        importedAt: new Date().toISOString(),
      };
    });
  }
}
