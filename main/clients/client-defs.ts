import { join } from 'node:path';
import type { ClientId } from '../../common/contract/index.js';

/**
 * Where the six MCP clients keep their servers, per OS (issue 15), and the
 * shape of Airlock's own entry in each. Sources: each client's documentation
 * of its MCP config (Claude Desktop `claude_desktop_config.json`, Claude Code
 * `~/.claude.json` + project `.mcp.json`, Cursor `~/.cursor/mcp.json`, VS Code
 * `mcp.json` / settings `mcp.servers`, Windsurf `mcp_config.json`, Codex
 * `~/.codex/config.toml` `[mcp_servers.*]`).
 */
export interface ClientsEnv {
  home: string;
  platform: NodeJS.Platform;
  /** %APPDATA% on Windows. */
  appData?: string;
  /** $XDG_CONFIG_HOME on Linux. */
  xdgConfig?: string;
  /** $CODEX_HOME, if set. */
  codexHome?: string;
}

export function clientsEnvFrom(
  env: NodeJS.ProcessEnv,
  home: string,
  platform: NodeJS.Platform,
): ClientsEnv {
  return {
    home,
    platform,
    ...(env.APPDATA ? { appData: env.APPDATA } : {}),
    ...(env.XDG_CONFIG_HOME ? { xdgConfig: env.XDG_CONFIG_HOME } : {}),
    ...(env.CODEX_HOME ? { codexHome: env.CODEX_HOME } : {}),
  };
}

export interface ConfigSource {
  path: string;
  scope: 'user' | 'project';
  format: 'json' | 'toml';
  /** Where the servers object sits in the file. */
  keyPath: string[];
}

export interface ClientDef {
  id: ClientId;
  label: string;
  /** Present when the client looks installed. */
  installDir: string;
  /** The file Airlock's entry is written to, and the servers object in it. */
  target: ConfigSource;
  /** Every file read on import (the target first). */
  sources(projectDir?: string): ConfigSource[];
  /** Airlock's entry for this client (JSON value; Codex: the TOML table's keys). */
  entry(mcpUrl: string, token: string): Record<string, unknown>;
  /** How to pick the change up. */
  note: string;
}

/** The app-data folder of a desktop app (Claude, Code) per OS. */
function appDir(e: ClientsEnv, name: string): string {
  if (e.platform === 'darwin') return join(e.home, 'Library', 'Application Support', name);
  if (e.platform === 'win32') return join(e.appData ?? join(e.home, 'AppData', 'Roaming'), name);
  return join(e.xdgConfig ?? join(e.home, '.config'), name);
}

const json = (
  path: string,
  keyPath: string[],
  scope: 'user' | 'project' = 'user',
): ConfigSource => ({
  path,
  scope,
  format: 'json',
  keyPath,
});
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export function clientDefs(e: ClientsEnv): ClientDef[] {
  const claudeDesktop = join(appDir(e, 'Claude'), 'claude_desktop_config.json');
  const claudeJson = join(e.home, '.claude.json');
  const cursor = join(e.home, '.cursor', 'mcp.json');
  const codeUser = join(appDir(e, 'Code'), 'User');
  const windsurf = join(e.home, '.codeium', 'windsurf', 'mcp_config.json');
  const codexDir = e.codexHome ?? join(e.home, '.codex');
  const codex: ConfigSource = {
    path: join(codexDir, 'config.toml'),
    scope: 'user',
    format: 'toml',
    keyPath: ['mcp_servers'],
  };
  return [
    {
      id: 'claude-desktop',
      label: 'Claude Desktop',
      installDir: appDir(e, 'Claude'),
      target: json(claudeDesktop, ['mcpServers']),
      sources: () => [json(claudeDesktop, ['mcpServers'])],
      // Claude Desktop launches only stdio servers from this file: it reaches Airlock through the
      // mcp-remote bridge, the token in the bridge's environment (as main/agents/client-setup.ts).
      entry: (url, token) => ({
        command: 'npx',
        args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${AIRLOCK_AUTH}'],
        env: { AIRLOCK_AUTH: `Bearer ${token}` },
      }),
      note: 'Quit and reopen Claude Desktop to load the change.',
    },
    {
      id: 'claude-code',
      label: 'Claude Code',
      installDir: join(e.home, '.claude'),
      target: json(claudeJson, ['mcpServers']),
      sources: (project) => [
        json(claudeJson, ['mcpServers']),
        ...(project
          ? [
              json(claudeJson, ['projects', project, 'mcpServers']),
              json(join(project, '.mcp.json'), ['mcpServers'], 'project'),
            ]
          : []),
      ],
      entry: (url, token) => ({ type: 'http', url, headers: bearer(token) }),
      note: 'New Claude Code sessions use it; run /mcp in a running one to reconnect.',
    },
    {
      id: 'cursor',
      label: 'Cursor',
      installDir: join(e.home, '.cursor'),
      target: json(cursor, ['mcpServers']),
      sources: (project) => [
        json(cursor, ['mcpServers']),
        ...(project ? [json(join(project, '.cursor', 'mcp.json'), ['mcpServers'], 'project')] : []),
      ],
      entry: (url, token) => ({ url, headers: bearer(token) }),
      note: 'Cursor picks the change up by itself; check Settings → MCP.',
    },
    {
      id: 'vscode',
      label: 'VS Code',
      installDir: codeUser,
      target: json(join(codeUser, 'mcp.json'), ['servers']),
      sources: (project) => [
        json(join(codeUser, 'mcp.json'), ['servers']),
        json(join(codeUser, 'settings.json'), ['mcp', 'servers']),
        ...(project ? [json(join(project, '.vscode', 'mcp.json'), ['servers'], 'project')] : []),
      ],
      entry: (url, token) => ({ type: 'http', url, headers: bearer(token) }),
      note: 'VS Code picks the change up by itself; start the server from the MCP view if asked.',
    },
    {
      id: 'windsurf',
      label: 'Windsurf',
      installDir: join(e.home, '.codeium', 'windsurf'),
      target: json(windsurf, ['mcpServers']),
      sources: () => [json(windsurf, ['mcpServers'])],
      entry: (url, token) => ({ serverUrl: url, headers: bearer(token) }),
      note: 'Press Refresh in Windsurf’s MCP settings (or restart it).',
    },
    {
      id: 'codex',
      label: 'Codex',
      installDir: codexDir,
      target: codex,
      sources: () => [codex],
      entry: (url, token) => ({ url, http_headers: bearer(token) }),
      note: 'New Codex sessions use it.',
    },
  ];
}
