/** The MCP clients on this machine (issue 15): import their servers, connect them to Airlock. */

export type ClientId =
  | 'claude-desktop'
  | 'claude-code'
  | 'cursor'
  | 'vscode'
  | 'windsurf'
  | 'codex'
  | 'gemini'
  | 'antigravity'
  | 'zed'
  | 'cline';

export const CLIENT_IDS: readonly ClientId[] = [
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'windsurf',
  'codex',
  'gemini',
  'antigravity',
  'zed',
  'cline',
];

export interface ClientFileView {
  path: string;
  /** `user`: the client's own config; `project`: a file in the project directory given. */
  scope: 'user' | 'project';
  exists: boolean;
  /** Why the file could not be read (a parse error, with line), if so. */
  error?: string;
  /** MCP servers configured in it (Airlock's own entry not counted). */
  servers: number;
}

export interface ClientView {
  id: ClientId;
  label: string;
  /** Its config directory exists (the client looks installed). */
  installed: boolean;
  /** Its user config has an "airlock" entry that reaches this Airlock (its URL and a current token). */
  connected: boolean;
  /** Where its "airlock" entry points (no token), when it has one. */
  entryUrl?: string;
  /**
   * Why its "airlock" entry no longer reaches this Airlock (another port, a revoked token), with
   * the fix (issue 29.1); absent when connected or when there is no entry.
   */
  stale?: string;
  /** The file `connectClient` writes. */
  target: string;
  files: ClientFileView[];
}

export interface ImportOptions {
  /** Only these clients (default: all). */
  clients?: ClientId[];
  /** Show what would be imported; change nothing. */
  dryRun?: boolean;
  /** Also read this project's files (.mcp.json, .vscode/mcp.json, ~/.claude.json "projects"). */
  projectDir?: string;
}

export interface ImportItem {
  client: ClientId;
  file: string;
  /** The name in the client's config. */
  name: string;
  /** The name in Airlock (the client's, made valid and unique). */
  as: string;
  kind: 'stdio' | 'url';
  /** The command line or URL (no secret). */
  summary: string;
  /** Environment variables / headers whose values go to the keychain. */
  secretNames: string[];
  action: 'add' | 'skip';
  /** Why it is skipped ("already in Airlock", "Airlock itself", …). */
  reason?: string;
  warnings: string[];
}

export interface ImportResult {
  dryRun: boolean;
  items: ImportItem[];
  /** Airlock names added (none on a dry run). */
  added: string[];
  /** Servers that were added but failed (name → reason); they stay added. */
  failed: Record<string, string>;
}

export interface ConnectOptions {
  dryRun?: boolean;
  /** Also remove, from this client's config, the servers imported from it into Airlock. */
  removeImported?: boolean;
  projectDir?: string;
}

export interface ConnectFileChange {
  path: string;
  /** What happened to Airlock's entry in this file, if it is the target. */
  entry?: 'added' | 'updated' | 'unchanged';
  /** Server entries removed from this file (--remove-imported). */
  removed: string[];
  changed: boolean;
  /** The copy made before writing. */
  backup?: string;
}

export interface ConnectResult {
  client: ClientId;
  dryRun: boolean;
  /** The MCP URL written: the one the running Airlock answers on (issue 29.1). */
  url: string;
  /** The agent whose token the client uses. */
  agent: string;
  files: ConnectFileChange[];
  /** What the user has to do next (restart the client, …). */
  note: string;
}

export interface ClientsApi {
  listClients(projectDir?: string): Promise<ClientView[]>;
  importClients(options?: ImportOptions): Promise<ImportResult>;
  /** Writes Airlock's entry into the client's config (backup first; a second run changes nothing). */
  connectClient(client: ClientId, options?: ConnectOptions): Promise<ConnectResult>;
}
