/**
 * Airlock's entry as each MCP client expects it (one source for `clients connect` —
 * client-defs.ts — and the setup snippets of `agent add` — main/clients/client-setup.ts).
 * Sources, per client:
 * - Claude Desktop launches only stdio servers from claude_desktop_config.json: Airlock is
 *   reached through the mcp-remote bridge, the token in the bridge's environment.
 * - Claude Code and VS Code `type: "http"` + `url` + `headers`; Cursor `url` + `headers`;
 *   Windsurf `serverUrl` + `headers`; Codex `url` + `http_headers` (issue 15, each app's MCP docs).
 * - Gemini CLI: `httpUrl` (Streamable HTTP) + `headers` in settings.json `mcpServers`
 *   (geminicli.com/docs/tools/mcp-server; older releases took a bare `url` for SSE, `httpUrl` is
 *   Streamable HTTP in all of them — checked with gemini 0.61's own `gemini mcp list`).
 * - Antigravity (IDE and `agy`): `serverUrl` + `headers` in mcp_config.json ("Antigravity CLI uses
 *   `serverUrl` field instead of `url`", Google's migration guide, google-gemini/gemini-cli
 *   docs/resources/migrating-to-antigravity-cli.md).
 * - Zed: `url` + `headers` under `context_servers` (zed.dev/docs/ai/mcp, "As Custom Servers").
 * - Cline: `type: "streamableHttp"` + `url` + `headers` (docs.cline.bot/mcp/configuring-mcp-servers;
 *   without `type` a `url` entry is taken for SSE).
 * - JetBrains AI Assistant keeps servers in the IDE's own settings (Settings | Tools | AI Assistant
 *   | Model Context Protocol (MCP) → Add → As JSON; jetbrains.com/help/ai-assistant/configure-an-mcp-server.html) and
 *   its first releases launch only stdio servers: the mcp-remote bridge, as for Claude Desktop.
 */
export type Entry = Record<string, unknown>;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The mcp-remote bridge (stdio → Airlock's URL); `${AIRLOCK_AUTH}` is expanded by mcp-remote. */
export const bridgeEntry = (url: string, token: string): Entry => ({
  command: 'npx',
  args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${AIRLOCK_AUTH}'],
  env: { AIRLOCK_AUTH: `Bearer ${token}` },
});

export const ENTRY = {
  'claude-desktop': bridgeEntry,
  'claude-code': (url: string, token: string): Entry => ({
    type: 'http',
    url,
    headers: bearer(token),
  }),
  cursor: (url: string, token: string): Entry => ({ url, headers: bearer(token) }),
  vscode: (url: string, token: string): Entry => ({ type: 'http', url, headers: bearer(token) }),
  windsurf: (url: string, token: string): Entry => ({ serverUrl: url, headers: bearer(token) }),
  codex: (url: string, token: string): Entry => ({ url, http_headers: bearer(token) }),
  gemini: (url: string, token: string): Entry => ({ httpUrl: url, headers: bearer(token) }),
  antigravity: (url: string, token: string): Entry => ({ serverUrl: url, headers: bearer(token) }),
  zed: (url: string, token: string): Entry => ({ url, headers: bearer(token) }),
  cline: (url: string, token: string): Entry => ({
    type: 'streamableHttp',
    url,
    headers: bearer(token),
  }),
  jetbrains: bridgeEntry,
} as const;
