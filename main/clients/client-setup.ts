import type { ClientSetup } from '../../common/contract/index.js';
import { ENTRY } from './entry-shapes.js';
import { tomlKey, tomlValue } from './edit-toml.js';

/**
 * Ready-to-paste configuration for the agents people use, in the same shapes
 * `airlock clients connect` writes (main/clients/entry-shapes.ts, which cites
 * each client's documentation). Claude Desktop and JetBrains AI Assistant
 * launch stdio servers: they reach Airlock's URL through the `mcp-remote`
 * bridge (README, "Connect an agent").
 */
export function clientSetups(mcpUrl: string, token: string, serverName = 'airlock'): ClientSetup[] {
  const auth = `Bearer ${token}`;
  const json = (servers: string, entry: Record<string, unknown>) =>
    JSON.stringify({ [servers]: { [serverName]: entry } }, null, 2);
  const bridge = 'Needs Node.js (npx runs the mcp-remote bridge).';
  const codex = ENTRY.codex(mcpUrl, token);
  return [
    {
      client: 'Claude Code',
      kind: 'command',
      where: 'terminal',
      text: `claude mcp add --transport http ${serverName} ${mcpUrl} --header "Authorization: ${auth}"`,
    },
    {
      client: 'Claude Desktop',
      kind: 'json',
      where: 'claude_desktop_config.json → "mcpServers"',
      text: json('mcpServers', ENTRY['claude-desktop'](mcpUrl, token)),
      note: `Claude Desktop starts URL servers through the mcp-remote bridge. ${bridge} Restart Claude Desktop afterwards.`,
    },
    {
      client: 'Cursor',
      kind: 'json',
      where: '~/.cursor/mcp.json',
      text: json('mcpServers', ENTRY.cursor(mcpUrl, token)),
    },
    {
      client: 'VS Code',
      kind: 'json',
      where: '.vscode/mcp.json',
      text: json('servers', ENTRY.vscode(mcpUrl, token)),
    },
    {
      client: 'Codex',
      kind: 'toml',
      where: '~/.codex/config.toml',
      text: `[mcp_servers.${tomlKey(serverName)}]\n${Object.entries(codex)
        .map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`)
        .join('\n')}\n`,
    },
    {
      client: 'Windsurf',
      kind: 'json',
      where: '~/.codeium/windsurf/mcp_config.json',
      text: json('mcpServers', ENTRY.windsurf(mcpUrl, token)),
    },
    {
      client: 'Gemini CLI',
      kind: 'json',
      where: '~/.gemini/settings.json (or a project’s .gemini/settings.json)',
      text: json('mcpServers', ENTRY.gemini(mcpUrl, token)),
      note: 'Gemini CLI starts MCP servers only in folders you trust (it asks; /permissions changes it). "gemini mcp list" shows the server.',
    },
    {
      client: 'Antigravity',
      kind: 'json',
      where:
        '~/.gemini/antigravity-cli/mcp_config.json (agy), or the IDE’s Manage MCP Servers → View raw config',
      text: json('mcpServers', ENTRY.antigravity(mcpUrl, token)),
    },
    {
      client: 'Zed',
      kind: 'json',
      where: '~/.config/zed/settings.json → "context_servers"',
      text: json('context_servers', ENTRY.zed(mcpUrl, token)),
    },
    {
      client: 'Cline',
      kind: 'json',
      where: 'cline_mcp_settings.json (Cline → MCP Servers → Configure)',
      text: json('mcpServers', ENTRY.cline(mcpUrl, token)),
    },
    {
      client: 'JetBrains AI Assistant',
      kind: 'json',
      where: 'Settings | Tools | AI Assistant | Model Context Protocol (MCP) → Add → As JSON',
      text: json('mcpServers', ENTRY.jetbrains(mcpUrl, token)),
      note: `The IDE keeps it in its own settings; it starts Airlock through the mcp-remote bridge. ${bridge}`,
    },
  ];
}
