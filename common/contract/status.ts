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
