import {
  array,
  boolean,
  number,
  object,
  oneOf,
  optional,
  string,
  withDefault,
  type Infer,
} from './shape.js';

/**
 * The Google part of settings.json (issue 5). No secret lives here: the
 * client secret and every account's tokens are in the vault
 * (`google-client-secret`, `google:<email>`); settings only say they exist.
 */
export const googleAccountSchema = object({
  /** Lower-cased address Google reported for the grant; the account's identity. */
  email: string(),
  /** Connected with read-only scopes: write tools are not offered for it. */
  readOnly: withDefault(boolean(), false),
  /** Scopes Google reported as granted (granular consent may grant fewer than asked). */
  scopes: withDefault(array(string()), []),
  state: withDefault(oneOf('connected', 'needs_reconnect'), 'connected'),
  /** Why the account needs reconnecting ("invalid_grant: Token has been expired or revoked."). */
  detail: optional(string()),
  connectedAt: string(),
});
export type GoogleAccountSettings = Infer<typeof googleAccountSchema>;

/**
 * Endpoint overrides: a testing aid (docs/google.md, "Endpoints"). Environment
 * variables (AIRLOCK_GOOGLE_*_URL, AIRLOCK_GOOGLE_API_ROOT) win over these.
 */
export const googleEndpointsSchema = object({
  authUrl: optional(string()),
  tokenUrl: optional(string()),
  revokeUrl: optional(string()),
  userinfoUrl: optional(string()),
  apiRoot: optional(string()),
});
export type GoogleEndpointSettings = Infer<typeof googleEndpointsSchema>;

export const googleSettingsSchema = object({
  /** The user's own "Desktop app" OAuth client (its secret is in the vault). */
  client: optional(
    object({
      clientId: string(),
      projectId: optional(string()),
      importedAt: string(),
    }),
  ),
  /** Connected accounts in connection order. */
  accounts: withDefault(array(googleAccountSchema), []),
  /**
   * The account Google tools use without an `account` argument (set from the Accounts page or
   * `airlock google default EMAIL`). Absent or no longer listed: the first connected account.
   */
  defaultAccount: optional(string()),
  /**
   * Preferred port for the consent callback listener (for firewalls that need a fixed one).
   * Absent or 0: any free port, which Google accepts for Desktop clients (RFC 8252 §7.3).
   */
  callbackPort: optional(number({ int: true, min: 0, max: 65535 })),
  endpoints: optional(googleEndpointsSchema),
});
export type GoogleSettings = Infer<typeof googleSettingsSchema>;
