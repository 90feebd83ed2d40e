import type { GmailClient } from './client.js';

const TTL_MS = 10 * 60_000;

/**
 * The display name Gmail itself puts on the user's mail ("Alice Example
 * <alice@example.com>"), from the send-as settings
 * (users.settings.sendAs.list; developers.google.com/gmail/api/reference/rest/v1/users.settings.sendAs):
 * the entry for the account's own address, the default one first. Fetched
 * once per account and kept a while. Best effort: when it cannot be read the
 * message goes out from the bare address, as before (issue 18.6).
 */
export class SendAsNames {
  private readonly cache = new Map<string, { at: number; name: Promise<string | undefined> }>();
  /** Names already read, for the synchronous approval text. */
  private readonly loaded = new Map<string, string | undefined>();

  /** The name if it has been read already (no request). */
  known(account: string): string | undefined {
    return this.loaded.get(account);
  }

  displayName(client: GmailClient): Promise<string | undefined> {
    const hit = this.cache.get(client.account);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.name;
    const name = client
      .read('the send-as settings', (api, opts) =>
        api.users.settings.sendAs.list({ userId: 'me' }, opts),
      )
      .then((d) => {
        const mine = (d.sendAs ?? []).filter(
          (s) => s.sendAsEmail?.toLowerCase() === client.account.toLowerCase(),
        );
        const entry = mine.find((s) => s.isDefault) ?? mine.find((s) => s.isPrimary) ?? mine[0];
        const found = entry?.displayName?.trim() || undefined;
        this.loaded.set(client.account, found);
        return found;
      })
      .catch(() => {
        this.cache.delete(client.account);
        return undefined;
      });
    this.cache.set(client.account, { at: Date.now(), name });
    return name;
  }
}
