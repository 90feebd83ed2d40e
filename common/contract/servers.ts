/** The user's other MCP servers and their OAuth sign-in. */

/** A server as the UI sees it: header names and `hasToken`, never a secret value. */
export interface RemoteView {
  name: string;
  /** The server's URL; empty for a local (stdio) server, which has `stdio` instead. */
  url: string;
  /** A local server started by Airlock (issue 15): how it is launched. */
  stdio?: StdioView;
  /** Its process, while Airlock supervises one. */
  process?: ProcessView;
  /** Where it was imported from (a client id such as "cursor"), when it was. */
  origin?: string;
  enabled: boolean;
  /**
   * Whether the server's own requests — sampling, elicitation, roots — are relayed to the agent
   * whose call caused them (labelled as the server's, docs/remote.md); off: refused (-32601).
   */
  relay: boolean;
  /** Stable source id (`remote:<name>`); tool keys are `remote:<name>/<tool>`. */
  sourceId: string;
  headerNames: string[];
  hasToken: boolean;
  state: 'disabled' | 'loading' | 'ready' | 'error';
  /** Why, when state is `error` ("unreachable: …", "401 from server", …). */
  detail?: string;
  /**
   * What a `ready` server offers that Airlock did not take all of: its resource list cut at the
   * bound (main/remote/upstream/list-budget.ts), e.g. "the server lists more than 10000 resources
   * (…); Airlock lists the first 10000".
   */
  warning?: string;
  toolCount: number;
  transport?: 'streamable-http' | 'sse' | 'stdio';
  protocolVersion?: string;
  createdAt: string;
  /** OAuth sign-in state (issue 10), present once the server asked for OAuth or the user signed in. */
  auth?: RemoteAuthView;
}

/** How a local server is started (issue 15): an argv, never a shell string. */
export interface StdioInput {
  command: string;
  args?: string[];
  /** Absolute working directory; default: the user's home directory. */
  cwd?: string;
  /** Plain environment variables, kept in settings. */
  env?: Record<string, string>;
  /** Secret environment variables: the values go to the keychain, only the names to settings. */
  secretEnv?: Record<string, string>;
  /**
   * What its sandbox lets it reach (issue 35). Absent on add: the working folder read-write and
   * any network; absent on a launch update: unchanged. Fields left out keep their value.
   */
  sandbox?: SandboxInput;
}

/** Network a local server's sandbox allows: nothing, anything, or only the listed hosts (through Airlock's proxy). */
export type NetworkAccess = 'none' | 'any' | 'hosts';

/** A local server's permissions (issue 35); the environment is the stdio `env` allow-list. */
export interface SandboxPermissions {
  /** Absolute folders or files it may read. */
  read: string[];
  /** Absolute folders it may read and write. */
  write: string[];
  network: NetworkAccess;
  /** With network "hosts": `host`, `host:port`, `*.example.com` (without a port: 80 and 443). */
  hosts: string[];
  /** Run it without a sandbox where this machine cannot give one (the user said so for this server). */
  allowUnsandboxed: boolean;
}

export type SandboxInput = Partial<SandboxPermissions>;

/** A local server's sandbox as the UI shows it. */
export interface SandboxView extends SandboxPermissions {
  /** What enforces the permissions on this machine. */
  enforcement: 'bubblewrap' | 'sandbox-exec' | 'none';
  /**
   * `sandboxed`; `unsandboxed`: runs without one because the user allowed it; `blocked`: not
   * started, since no sandbox is available here and running without one was not allowed.
   */
  status: 'sandboxed' | 'unsandboxed' | 'blocked';
  /** One plain sentence: what is and is not enforced here, and what to do. */
  note: string;
  /** Read-only paths added so the program can run (its runtime), as of its last start. */
  runtime: string[];
  /** The server's own folder: its home inside the sandbox. */
  home?: string;
  /** What its command line or folder asks for that it was not granted. */
  notGranted: string[];
  /** Hosts it tried to reach through the proxy and was refused (since Airlock started). */
  refusedHosts: string[];
}

export interface StdioView {
  command: string;
  args: string[];
  cwd?: string;
  env: Record<string, string>;
  secretEnvNames: string[];
  /**
   * Proxy and CA settings passed through from Airlock's own environment (HTTP(S)_PROXY, NO_PROXY,
   * NODE_EXTRA_CA_CERTS, SSL_CERT_FILE; docs/remote.md "Environment"); a proxy's password as `***`.
   */
  passedEnv?: Record<string, string>;
  /** Its permissions and how they are enforced here (issue 35). */
  sandbox: SandboxView;
}

export interface ProcessView {
  /** The running process's pid (leader of its process group). */
  pid?: number;
  /** How many times Airlock started it since Airlock started. */
  starts: number;
  /** How the last process ended, e.g. "exited with code 1". */
  lastExit?: string;
}

/** A server to add: `url` (a remote server) or `stdio` (a local one), not both. */
export interface RemoteInput {
  name: string;
  url?: string;
  stdio?: StdioInput;
  /** Set by `importClients`: the client the server came from. */
  origin?: string;
  /** Extra request headers; every value is kept in the vault. */
  headers?: Record<string, string>;
  bearerToken?: string;
  /**
   * The whole URL is a secret (a per-user URL such as Zapier's or Composio's): every path segment
   * and query value goes to the vault and is shown as `***`; scheme, host and port stay. Without
   * it only query credentials and path segments that look like tokens are (docs/remote.md).
   */
  urlSecret?: boolean;
}

export interface RemotePatch {
  url?: string;
  /** A local server's new launch; `secretEnv` absent keeps the stored secret values. */
  stdio?: StdioInput;
  /** A local server's permissions (issue 35): the fields given replace those fields. */
  sandbox?: SandboxInput;
  enabled?: boolean;
  /** Relay the server's sampling, elicitation and roots requests to agents (default true). */
  relay?: boolean;
  /** Replaces every extra header; `{}` removes them. */
  headers?: Record<string, string>;
  /** A new token, or null to remove it. */
  bearerToken?: string | null;
}

export interface RemoteProbeResult {
  ok: boolean;
  detail?: string;
  transport?: 'streamable-http' | 'sse' | 'stdio';
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

export interface ServersApi {
  listRemotes(): Promise<RemoteView[]>;
  addRemote(input: RemoteInput): Promise<RemoteView>;
  updateRemote(name: string, patch: RemotePatch): Promise<RemoteView>;
  removeRemote(name: string): Promise<void>;
  /** Reconnects one server (or all) and re-reads its tools now. */
  refreshRemote(name?: string): Promise<RemoteView[]>;
  /** Connects to a URL without saving it and reports what it offers. */
  testRemote(input: Omit<RemoteInput, 'name'>): Promise<RemoteProbeResult>;

  /** Starts an OAuth sign-in to a remote server; progress arrives as `remote.login` events and through waitRemoteLogin. */
  loginRemote(name: string, options?: RemoteLoginOptions): Promise<RemoteLoginStart>;
  /** Waits up to `waitMs` (≤ 30 s) for the sign-in to leave `waiting`/`exchanging`; call again while it has not. */
  waitRemoteLogin(flowId: string, waitMs?: number): Promise<RemoteLoginView>;
  cancelRemoteLogin(flowId: string): Promise<RemoteLoginView>;
  /** Forgets the server's OAuth tokens and revokes them where the server supports it. */
  logoutRemote(name: string): Promise<RemoteLogoutResult>;
}
