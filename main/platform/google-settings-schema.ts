import { z } from 'zod';

/**
 * The Google part of settings.json (issue 5). No secret lives here: the
 * client secret and every account's tokens are in the vault
 * (`google-client-secret`, `google:<email>`); settings only say they exist.
 */
export const googleAccountSchema = z.strictObject({
  /** Lower-cased address Google reported for the grant; the account's identity. */
  email: z.string(),
  /** Connected with read-only scopes: write tools are not offered for it. */
  readOnly: z.boolean().default(false),
  /** Scopes Google reported as granted (granular consent may grant fewer than asked). */
  scopes: z.array(z.string()).default([]),
  state: z.enum(['connected', 'needs_reconnect']).default('connected'),
  /** Why the account needs reconnecting ("invalid_grant: Token has been expired or revoked."). */
  detail: z.string().optional(),
  connectedAt: z.string(),
});
export type GoogleAccountSettings = z.infer<typeof googleAccountSchema>;

/**
 * Endpoint overrides: a testing aid (docs/google.md, "Endpoints"). Environment
 * variables (AIRLOCK_GOOGLE_*_URL, AIRLOCK_GOOGLE_API_ROOT) win over these.
 */
export const googleEndpointsSchema = z.strictObject({
  authUrl: z.string().optional(),
  tokenUrl: z.string().optional(),
  revokeUrl: z.string().optional(),
  userinfoUrl: z.string().optional(),
  apiRoot: z.string().optional(),
});
export type GoogleEndpointSettings = z.infer<typeof googleEndpointsSchema>;

export const googleSettingsSchema = z.strictObject({
  /** The user's own "Desktop app" OAuth client (its secret is in the vault). */
  client: z
    .strictObject({
      clientId: z.string(),
      projectId: z.string().optional(),
      importedAt: z.string(),
    })
    .optional(),
  /** Connected accounts in connection order. */
  accounts: z.array(googleAccountSchema).default([]),
  /**
   * The account Google tools use without an `account` argument (set from the Accounts page or
   * `airlock google default EMAIL`). Absent or no longer listed: the first connected account.
   */
  defaultAccount: z.string().optional(),
  /**
   * Preferred port for the consent callback listener (for firewalls that need a fixed one).
   * Absent or 0: any free port, which Google accepts for Desktop clients (RFC 8252 §7.3).
   */
  callbackPort: z.number().int().min(0).max(65535).optional(),
  endpoints: googleEndpointsSchema.optional(),
});
export type GoogleSettings = z.infer<typeof googleSettingsSchema>;
