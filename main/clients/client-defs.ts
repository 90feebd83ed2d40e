import { join } from 'node:path';
import type { ClientId } from '../../common/contract/index.js';
import { appDir, json } from './config-paths.js';
import { ENTRY } from './entry-shapes.js';
import { newerClients } from './newer-clients.js';

/**
 * Where the MCP clients keep their servers, per OS (issue 15; issue 29.3 added Gemini CLI,
 * Antigravity, Zed and Cline), and the shape of Airlock's own entry in each (entry-shapes.ts).
 * Sources: each client's documentation of its MCP config — Claude Desktop
 * `claude_desktop_config.json`, Claude Code `~/.claude.json` + project `.mcp.json`, Cursor
 * `~/.cursor/mcp.json`, VS Code `mcp.json` / settings `mcp.servers`, Windsurf `mcp_config.json`,
 * Codex `~/.codex/config.toml` `[mcp_servers.*]`; the newer ones at their definitions below.
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
  /** $GEMINI_CLI_HOME, if set: Gemini CLI's stand-in for the home directory. */
  geminiHome?: string;
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
    ...(env.GEMINI_CLI_HOME ? { geminiHome: env.GEMINI_CLI_HOME } : {}),
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
      entry: ENTRY['claude-desktop'],
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
      entry: ENTRY['claude-code'],
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
      entry: ENTRY.cursor,
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
      entry: ENTRY.vscode,
      note: 'VS Code picks the change up by itself; start the server from the MCP view if asked.',
    },
    {
      id: 'windsurf',
      label: 'Windsurf',
      installDir: join(e.home, '.codeium', 'windsurf'),
      target: json(windsurf, ['mcpServers']),
      sources: () => [json(windsurf, ['mcpServers'])],
      entry: ENTRY.windsurf,
      note: 'Press Refresh in Windsurf’s MCP settings (or restart it).',
    },
    {
      id: 'codex',
      label: 'Codex',
      installDir: codexDir,
      target: codex,
      sources: () => [codex],
      entry: ENTRY.codex,
      note: 'New Codex sessions use it.',
    },
    ...newerClients(e, codeUser),
  ];
}
