/** Whether Airlock runs, where, and its settings. */

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
  /** Where secrets are kept (issue 19): the OS keychain, or the encrypted file vault and its trade-off. */
  vault?: VaultView;
}

export interface VaultView {
  kind: 'keychain' | 'file';
  /** Why this vault (forced with --vault, no OS keychain here, …). */
  why: string;
  /** For the file vault: what it protects against and what it does not. */
  tradeOff?: string;
}

export interface SourceStatusView {
  id: string;
  kind: 'builtin' | 'google' | 'remote' | 'test';
  label: string;
  state: 'loading' | 'ready' | 'error';
  detail?: string;
  toolCount: number;
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

export interface StatusApi {
  getStatus(): Promise<StatusView>;
  setPaused(paused: boolean): Promise<StatusView>;
}

export interface SettingsApi {
  getSettings(): Promise<SettingsView>;
  updateSettings(patch: SettingsPatch): Promise<SettingsView>;
}
