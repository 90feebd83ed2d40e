import { array, number, object, parse, safeParse, string, type Infer } from '../platform/shape.js';
import type { Vault } from '../platform/vault/vault.js';

/**
 * One account's grant as kept in the vault under `google:<email>` (issue 5,
 * item 3). Only the vault ever sees it: settings list the account, never
 * a token.
 */
export const tokenBundleSchema = object(
  {
    refreshToken: string({ min: 1 }),
    accessToken: string(),
    /** Access-token expiry, ms since the epoch. */
    expiry: number(),
    scopes: array(string()),
    /** When the user consented (ISO). */
    grantedAt: string(),
    /** The OAuth client the grant belongs to: refresh tokens only work with it. */
    clientId: string(),
  },
  { unknown: 'strip' },
);
export type TokenBundle = Infer<typeof tokenBundleSchema>;

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
      const parsed = safeParse(tokenBundleSchema, JSON.parse(raw));
      return parsed.ok ? parsed.value : null;
    } catch {
      return null;
    }
  }

  async write(email: string, bundle: TokenBundle): Promise<void> {
    await this.vault.set(accountKey(email), JSON.stringify(parse(tokenBundleSchema, bundle)));
  }

  async delete(email: string): Promise<boolean> {
    return this.vault.delete(accountKey(email));
  }
}
