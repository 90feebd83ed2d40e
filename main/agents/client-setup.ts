import type { ClientSetup } from '../../common/contract/index.js';

/**
 * Ready-to-paste configuration for the agents people use. Claude Desktop
 * only launches stdio servers from its config file, so it reaches a URL
 * server through the `mcp-remote` bridge (README, "Connect an agent").
 */
export function clientSetups(mcpUrl: string, token: string, serverName = 'airlock'): ClientSetup[] {
  const auth = `Bearer ${token}`;
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
      text: JSON.stringify(
        {
          mcpServers: {
            [serverName]: {
              command: 'npx',
              args: ['-y', 'mcp-remote', mcpUrl, '--header', 'Authorization:${AIRLOCK_AUTH}'],
              env: { AIRLOCK_AUTH: auth },
            },
          },
        },
        null,
        2,
      ),
    },
    {
      client: 'Cursor',
      kind: 'json',
      where: '~/.cursor/mcp.json',
      text: JSON.stringify(
        { mcpServers: { [serverName]: { url: mcpUrl, headers: { Authorization: auth } } } },
        null,
        2,
      ),
    },
    {
      client: 'VS Code',
      kind: 'json',
      where: '.vscode/mcp.json',
      text: JSON.stringify(
        {
          servers: {
            [serverName]: { type: 'http', url: mcpUrl, headers: { Authorization: auth } },
          },
        },
        null,
        2,
      ),
    },
    {
      client: 'Codex',
      kind: 'toml',
      where: '~/.codex/config.toml',
      text: `[mcp_servers.${serverName}]\nurl = "${mcpUrl}"\nhttp_headers = { "Authorization" = "${auth}" }\n`,
    },
    {
      client: 'Windsurf',
      kind: 'json',
      where: '~/.codeium/windsurf/mcp_config.json',
      text: JSON.stringify(
        { mcpServers: { [serverName]: { serverUrl: mcpUrl, headers: { Authorization: auth } } } },
        null,
        2,
      ),
    },
  ];
}
