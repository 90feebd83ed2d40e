/**
 * ControlApi: the one typed contract between Airlock's core and any UI.
 *
 * Implemented by the core (main/core/control-service.ts), carried over
 * Electron IPC by the preload and over HTTP + server-sent events by the
 * headless gateway (main/gateway/control-routes.ts), and consumed by the
 * React renderer and the CLI. Secrets never cross it: views say
 * `hasToken: true`, never the token. The one exception is `addAgent`, which
 * returns a new agent token exactly once, to the user who asked for it.
 */

export type ApprovalMode = 'auto' | 'ask';

export type ApprovalState =
  | 'pending'
  | 'approved'
  | 'denied'
  | 'expired'
  | 'withdrawn'
  | 'executing'
  | 'done'
  | 'failed'
  | 'unknown';

export interface StatusView {
  version: string;
  running: boolean;
  mcpUrl: string;
  dataDir: string;
  paused: boolean;
  agentsConnected: number;
  pendingApprovals: number;
  tools: { total: number; needApproval: number };
  sources: SourceStatusView[];
}

export interface SourceStatusView {
  id: string;
  kind: 'builtin' | 'google' | 'remote' | 'test';
  label: string;
  state: 'loading' | 'ready' | 'error';
  detail?: string;
  toolCount: number;
}

export interface ToolView {
  /** Name agents see. */
  name: string;
  /** Stable key (`source/tool`) that settings are stored under. */
  key: string;
  source: string;
  title?: string;
  description: string;
  readOnly: boolean;
  destructive: boolean;
  enabled: boolean;
  approval: ApprovalMode;
  /** True when the user changed enabled/approval from the default. */
  customized: boolean;
  inputSchema: Record<string, unknown>;
  /** Present when listed for one agent. */
  agent?: string;
  grantedUntil?: string | null;
}

export interface ToolPolicyPatch {
  enabled?: boolean;
  approval?: ApprovalMode;
  /** Apply to one agent only. */
  agent?: string;
  /** Required to make a destructive tool `auto`. */
  confirmDestructive?: boolean;
}

export interface AgentView {
  name: string;
  createdAt: string;
  lastSeen: string | null;
  connected: boolean;
  hasToken: true;
  tools?: string[];
}

export interface ClientSetup {
  client: string;
  /** What to do with `text`: run it in a terminal, or paste it into the named file. */
  kind: 'command' | 'json' | 'toml';
  where: string;
  text: string;
}

export interface NewAgent {
  agent: AgentView;
  /** Shown once; Airlock cannot show it again. */
  token: string;
  mcpUrl: string;
  setup: ClientSetup[];
}

export interface ApprovalView {
  id: string;
  agent: string;
  tool: string;
  toolTitle?: string;
  /** The tool's own statement of what running it does. */
  effect: string;
  arguments: Record<string, unknown>;
  inputSchema: Record<string, unknown>;
  state: ApprovalState;
  createdAt: string;
  expiresAt: string;
  decidedAt?: string;
  reason?: string;
  editedArguments?: Record<string, unknown>;
  /** Short text of the outcome once done/failed. */
  outcome?: string;
}

export type Decision =
  | { kind: 'deny'; reason?: string }
  | { kind: 'allow_once' }
  | { kind: 'allow_edited'; arguments: Record<string, unknown> }
  | { kind: 'always_allow'; until?: string };

export interface ActivityView {
  id: number;
  at: string;
  agent: string;
  tool: string;
  decision:
    'auto' | 'approved' | 'denied' | 'expired' | 'withdrawn' | 'waiting' | 'rejected' | 'paused';
  outcome: 'ok' | 'error' | 'pending' | 'unknown';
  durationMs: number;
  argsDigest: string;
  approvalId?: string;
  detail?: string;
}

export interface ActivityFilter {
  agent?: string;
  tool?: string;
  limit?: number;
  beforeId?: number;
}

export interface SettingsView {
  port: number;
  approvals: {
    waitSeconds: number;
    expireMinutes: number;
    outcomeWindowMinutes: number;
  };
  resultChars: number;
}

export type SettingsPatch = Partial<{
  waitSeconds: number;
  expireMinutes: number;
  outcomeWindowMinutes: number;
  resultChars: number;
}>;

/** A remote MCP server as the UI sees it: header names and `hasToken`, never a secret value. */
export interface RemoteView {
  name: string;
  url: string;
  enabled: boolean;
  /** Stable source id (`remote:<name>`); tool keys are `remote:<name>/<tool>`. */
  sourceId: string;
  headerNames: string[];
  hasToken: boolean;
  state: 'disabled' | 'loading' | 'ready' | 'error';
  /** Why, when state is `error` ("unreachable: …", "401 from server", …). */
  detail?: string;
  toolCount: number;
  transport?: 'streamable-http' | 'sse';
  protocolVersion?: string;
  createdAt: string;
  /** OAuth sign-in state (issue 10), present once the server asked for OAuth or the user signed in. */
  auth?: RemoteAuthView;
}

export interface RemoteInput {
  name: string;
  url: string;
  /** Extra request headers; every value is kept in the vault. */
  headers?: Record<string, string>;
  bearerToken?: string;
}

export interface RemotePatch {
  url?: string;
  enabled?: boolean;
  /** Replaces every extra header; `{}` removes them. */
  headers?: Record<string, string>;
  /** A new token, or null to remove it. */
  bearerToken?: string | null;
}

export interface RemoteProbeResult {
  ok: boolean;
  detail?: string;
  transport?: 'streamable-http' | 'sse';
  protocolVersion?: string;
  server?: { name: string; version: string };
  tools: { name: string; title?: string; description: string; readOnlyHint: boolean }[];
}

/** A remote server's OAuth sign-in (issue 10): what was granted and whether it still works; never a token. */
export interface RemoteAuthView {
  signedIn: boolean;
  /** Set while the server waits for a sign-in: "sign-in required", "sign-in required: <reason>", "sign-in required (needs scope …)". */
  signInRequired?: string;
  issuer?: string;
  scopes?: string[];
  /** When the current access token expires; with `renews`, Airlock renews it before then. */
  expiresAt?: string;
  renews: boolean;
  /** How Airlock is registered with the authorization server. */
  client?: 'dynamic' | 'metadata-document' | 'pre-registered';
  signedInAt?: string;
}

export interface RemoteLoginOptions {
  /** A client registered by hand at the authorization server (when it offers no dynamic registration). */
  clientId?: string;
  /** Its secret, if it has one (kept in the vault). */
  clientSecret?: string;
  /** HTTPS URL of a Client ID Metadata Document to use where the server supports them. */
  clientMetadataUrl?: string;
  /** Scope to ask for instead of the one the server suggests. */
  scope?: string;
  /** Open the system browser from the core (default true); the CLI opens it itself. */
  openBrowser?: boolean;
}

export interface RemoteLoginStart {
  flowId: string;
  name: string;
  /** The authorization URL (no secret: its `state` only works with this flow's listener). */
  authUrl: string;
  redirectUri: string;
  expiresAt: string;
  browserOpened: boolean;
}

export interface RemoteLoginView {
  flowId: string;
  name: string;
  state: 'waiting' | 'exchanging' | 'signed-in' | 'failed' | 'cancelled';
  /** ACCESS_DENIED, AUTHORIZATION_ERROR, EXCHANGE_FAILED, TIMEOUT, CANCELLED, SAVE_FAILED (start errors are ControlErrors naming NO_OAUTH, NO_PKCE, …). */
  error?: { code: string; message: string };
  /** The server once signed in. */
  remote?: RemoteView;
}

export interface RemoteLogoutResult {
  name: string;
  /** Whether the authorization server confirmed the revocation. */
  revoked: boolean;
  detail?: string;
}

/** The user's Google OAuth client as the UI sees it: the ID, never the secret. */
export interface GoogleClientView {
  clientId: string;
  projectId?: string;
  hasSecret: boolean;
  importedAt: string;
}

/** Google's downloaded `client_secret_….json` ("Desktop app"), or the ID and secret typed in. */
export type GoogleClientInput = { json: string } | { clientId: string; clientSecret: string };

/** A connected Google account (issue 5): what was granted and whether it still works; never a token. */
export interface GoogleAccountView {
  email: string;
  readOnly: boolean;
  scopes: string[];
  /** Asked for but not granted (the consent screen lets users untick some). */
  missingScopes: string[];
  state: 'connected' | 'needs_reconnect';
  /** Why it needs reconnecting. */
  detail?: string;
  connectedAt: string;
  /** The account Google tools use when no `account` argument is given. */
  isDefault: boolean;
  hasToken: true;
}

export interface GoogleConnectOptions {
  /** Ask only for read-only scopes; write tools are not offered for the account. */
  readOnly?: boolean;
  /** Reconnect this account (Google preselects it; read-only follows its current mode unless given). */
  account?: string;
  /** Open the system browser from the core (default true); the CLI opens it itself. */
  openBrowser?: boolean;
}

export interface GoogleConnectStart {
  flowId: string;
  /** The consent URL (no secret: its `state` only works with this flow's listener). */
  authUrl: string;
  redirectUri: string;
  expiresAt: string;
  browserOpened: boolean;
}

export interface GoogleConnectView {
  flowId: string;
  state: 'waiting' | 'exchanging' | 'connected' | 'failed' | 'cancelled';
  account?: GoogleAccountView;
  /** ACCESS_DENIED, TIMEOUT, NO_REFRESH_TOKEN, EXCHANGE_FAILED, AUTHORIZATION_ERROR, CANCELLED, SAVE_FAILED. */
  error?: { code: string; message: string };
}

export interface GoogleDisconnectResult {
  email: string;
  /** Whether Google confirmed the grant is revoked. */
  revoked: boolean;
  detail?: string;
}

export type CoreEvent =
  | { type: 'approval.requested'; approval: ApprovalView }
  | { type: 'approval.updated'; approval: ApprovalView }
  | { type: 'activity.added'; activity: ActivityView }
  | { type: 'state.changed' }
  | { type: 'tools.changed' }
  | { type: 'google.connect'; flow: GoogleConnectView }
  | { type: 'remote.login'; flow: RemoteLoginView };

export interface ControlApi {
  getStatus(): Promise<StatusView>;
  setPaused(paused: boolean): Promise<StatusView>;

  listPending(): Promise<ApprovalView[]>;
  getApproval(id: string): Promise<ApprovalView>;
  decide(id: string, decision: Decision): Promise<ApprovalView>;

  listTools(agent?: string): Promise<ToolView[]>;
  setToolPolicy(name: string, patch: ToolPolicyPatch): Promise<ToolView>;

  listAgents(): Promise<AgentView[]>;
  addAgent(name: string): Promise<NewAgent>;
  revokeAgent(name: string): Promise<void>;
  /** Limits an agent to these tools (public names); null lifts the limit. */
  setAgentTools(name: string, tools: string[] | null): Promise<AgentView>;

  listActivity(filter?: ActivityFilter): Promise<ActivityView[]>;

  getSettings(): Promise<SettingsView>;
  updateSettings(patch: SettingsPatch): Promise<SettingsView>;

  listRemotes(): Promise<RemoteView[]>;
  addRemote(input: RemoteInput): Promise<RemoteView>;
  updateRemote(name: string, patch: RemotePatch): Promise<RemoteView>;
  removeRemote(name: string): Promise<void>;
  /** Reconnects one server (or all) and re-reads its tools now. */
  refreshRemote(name?: string): Promise<RemoteView[]>;
  /** Connects to a URL without saving it and reports what it offers. */
  testRemote(input: Omit<RemoteInput, 'name'>): Promise<RemoteProbeResult>;

  getGoogleClient(): Promise<GoogleClientView | null>;
  /** Imports or replaces the OAuth client (ID to settings, secret to the vault). */
  setGoogleClient(input: GoogleClientInput): Promise<GoogleClientView>;
  listGoogleAccounts(): Promise<GoogleAccountView[]>;
  /** Starts a loopback consent; progress arrives as `google.connect` events and through waitGoogleConnect. */
  startGoogleConnect(options?: GoogleConnectOptions): Promise<GoogleConnectStart>;
  /** Waits up to `waitMs` (≤ 30 s) for the flow to leave `waiting`/`exchanging`; call again while it has not. */
  waitGoogleConnect(flowId: string, waitMs?: number): Promise<GoogleConnectView>;
  cancelGoogleConnect(flowId: string): Promise<GoogleConnectView>;
  /** Revokes the grant at Google, deletes its tokens from the vault and removes the account. */
  disconnectGoogle(email: string): Promise<GoogleDisconnectResult>;

  /** Starts an OAuth sign-in to a remote server; progress arrives as `remote.login` events and through waitRemoteLogin. */
  loginRemote(name: string, options?: RemoteLoginOptions): Promise<RemoteLoginStart>;
  /** Waits up to `waitMs` (≤ 30 s) for the sign-in to leave `waiting`/`exchanging`; call again while it has not. */
  waitRemoteLogin(flowId: string, waitMs?: number): Promise<RemoteLoginView>;
  cancelRemoteLogin(flowId: string): Promise<RemoteLoginView>;
  /** Forgets the server's OAuth tokens and revokes them where the server supports it. */
  logoutRemote(name: string): Promise<RemoteLogoutResult>;
}

export type ControlMethod = keyof ControlApi;

/**
 * What the Electron preload exposes as `window.airlock`: ControlApi plus the
 * IPC counterpart of `GET /api/events`. The renderer uses it when present and
 * falls back to the HTTP transport otherwise (renderer/src/lib/transport.ts).
 */
export interface ControlBridge extends ControlApi {
  /** Calls `listener` for every core event until the returned function is called. */
  onEvent(listener: (event: CoreEvent) => void): () => void;
}

/** Every method name, for transports that must check a name arrived from outside. */
export const CONTROL_METHODS: readonly ControlMethod[] = [
  'getStatus',
  'setPaused',
  'listPending',
  'getApproval',
  'decide',
  'listTools',
  'setToolPolicy',
  'listAgents',
  'addAgent',
  'revokeAgent',
  'setAgentTools',
  'listActivity',
  'getSettings',
  'updateSettings',
  'listRemotes',
  'addRemote',
  'updateRemote',
  'removeRemote',
  'refreshRemote',
  'testRemote',
  'getGoogleClient',
  'setGoogleClient',
  'listGoogleAccounts',
  'startGoogleConnect',
  'waitGoogleConnect',
  'cancelGoogleConnect',
  'disconnectGoogle',
  'loginRemote',
  'waitRemoteLogin',
  'cancelRemoteLogin',
  'logoutRemote',
] as const;

/** Error codes a ControlApi call can fail with; transports carry them unchanged. */
export type ControlErrorCode =
  | 'NOT_FOUND'
  | 'INVALID'
  | 'CONFLICT'
  | 'CONFIRM_REQUIRED'
  | 'KEYCHAIN_UNAVAILABLE'
  | 'VAULT_LOCKED'
  | 'INTERNAL';

export class ControlError extends Error {
  readonly code: ControlErrorCode;
  constructor(code: ControlErrorCode, message: string) {
    super(message);
    this.name = 'ControlError';
    this.code = code;
  }
}
