import { z } from 'zod';
import type { Vault } from '../platform/vault/vault.js';

/**
 * One account's grant as kept in the vault under `google:<email>` (issue 5,
 * item 3). Only the vault ever sees it: settings list the account, never
 * a token.
 */
export const tokenBundleSchema = z.object({
  refreshToken: z.string().min(1),
  accessToken: z.string(),
  /** Access-token expiry, ms since the epoch. */
  expiry: z.number(),
  scopes: z.array(z.string()),
  /** When the user consented (ISO). */
  grantedAt: z.string(),
  /** The OAuth client the grant belongs to: refresh tokens only work with it. */
  clientId: z.string(),
});
export type TokenBundle = z.infer<typeof tokenBundleSchema>;

export function accountKey(email: string): string {
  return `google:${email.toLowerCase()}`;
}

export class TokenStore {
  constructor(private readonly vault: Vault) {}

  /** Null when the vault is reachable and holds nothing (or something unreadable) for the account. */
  async read(email: string): Promise<TokenBundle | null> {
    const raw = await this.vault.get(accountKey(email));
    if (raw === null) return null;
    try {
      const parsed = tokenBundleSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async write(email: string, bundle: TokenBundle): Promise<void> {
    await this.vault.set(accountKey(email), JSON.stringify(tokenBundleSchema.parse(bundle)));
  }

  async delete(email: string): Promise<boolean> {
    return this.vault.delete(accountKey(email));
  }
}
