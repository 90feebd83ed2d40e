import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ClientDef, ClientsEnv } from './client-defs.js';
import { firstExisting, json } from './config-paths.js';
import { ENTRY } from './entry-shapes.js';

/**
 * Gemini CLI, Antigravity, Zed and Cline (issue 29.3): where each keeps its MCP servers,
 * from its own documentation (cited per client). JetBrains AI Assistant is not here: it keeps
 * servers in the IDE's settings, not in a documented file — `agent add` prints what to paste.
 */
export function newerClients(e: ClientsEnv, codeUser: string): ClientDef[] {
  return [gemini(e), antigravity(e), zed(e), cline(e, codeUser)];
}

/**
 * Gemini CLI (geminicli.com/docs/tools/mcp-server, docs/get-started/configuration): `mcpServers`
 * in `~/.gemini/settings.json` (user; `$GEMINI_CLI_HOME` stands in for home) and
 * `<project>/.gemini/settings.json` (project). It starts MCP servers — user-level ones too —
 * only in folders the user trusts (docs "Trusted Folders"), a choice Airlock leaves to the user.
 */
function gemini(e: ClientsEnv): ClientDef {
  const dir = join(e.geminiHome ?? e.home, '.gemini');
  const user = json(join(dir, 'settings.json'), ['mcpServers']);
  return {
    id: 'gemini',
    label: 'Gemini CLI',
    installDir: dir,
    target: user,
    sources: (project) => [
      user,
      ...(project
        ? [json(join(project, '.gemini', 'settings.json'), ['mcpServers'], 'project')]
        : []),
    ],
    entry: ENTRY.gemini,
    note:
      'New Gemini CLI sessions use it ("gemini mcp list" shows it). Gemini CLI starts MCP servers only in folders you trust: ' +
      'it asks when you start it in a new folder, /permissions changes it.',
  };
}

/**
 * Antigravity, the IDE and the `agy` CLI: `mcpServers` in an `mcp_config.json`. Google's guide
 * for moving from Gemini CLI (google-gemini/gemini-cli docs/resources/migrating-to-antigravity-cli.md)
 * names `~/.gemini/antigravity-cli/mcp_config.json` (user) and `<project>/.agents/mcp_config.json`;
 * the IDE's "Manage MCP Servers → View raw config" opens `~/.gemini/antigravity/mcp_config.json`,
 * and later releases read `~/.gemini/config/mcp_config.json`. Airlock writes the one that exists
 * (in that order), else the guide's.
 */
function antigravity(e: ClientsEnv): ClientDef {
  const g = join(e.home, '.gemini');
  const files = ['antigravity-cli', 'config', 'antigravity'].map((d) =>
    join(g, d, 'mcp_config.json'),
  );
  const dirs = ['antigravity-cli', 'antigravity'].map((d) => join(g, d));
  const target = firstExisting(files, join(firstExisting(dirs, dirs[0]!), 'mcp_config.json'));
  const user = (path: string) => json(path, ['mcpServers']);
  return {
    id: 'antigravity',
    label: 'Antigravity',
    installDir: dirname(target),
    target: user(target),
    sources: (project) => [
      user(target),
      ...files.filter((f) => f !== target && existsSync(f)).map(user),
      ...(project
        ? [json(join(project, '.agents', 'mcp_config.json'), ['mcpServers'], 'project')]
        : []),
    ],
    entry: ENTRY.antigravity,
    note: 'Antigravity reads it when it starts; in the IDE, press Refresh under Manage MCP Servers, in agy run /mcp.',
  };
}

/**
 * Zed (zed.dev/docs/ai/mcp "As Custom Servers"; zed.dev/docs/configuring-zed for the file):
 * `context_servers` in `~/.config/zed/settings.json` on macOS and Linux (`$XDG_CONFIG_HOME/zed`),
 * `%APPDATA%\Zed\settings.json` on Windows; a project's `.zed/settings.json`.
 */
function zed(e: ClientsEnv): ClientDef {
  const dir =
    e.platform === 'win32'
      ? join(e.appData ?? join(e.home, 'AppData', 'Roaming'), 'Zed')
      : join((e.platform === 'linux' ? e.xdgConfig : undefined) ?? join(e.home, '.config'), 'zed');
  const user = json(join(dir, 'settings.json'), ['context_servers']);
  return {
    id: 'zed',
    label: 'Zed',
    installDir: dir,
    target: user,
    sources: (project) => [
      user,
      ...(project
        ? [json(join(project, '.zed', 'settings.json'), ['context_servers'], 'project')]
        : []),
    ],
    entry: ENTRY.zed,
    note: 'Zed picks the change up by itself; the Agent Panel’s settings show the server.',
  };
}

/**
 * Cline (docs.cline.bot/mcp/configuring-mcp-servers): `mcpServers` in `cline_mcp_settings.json`,
 * in the VS Code extension's storage (`Code/User/globalStorage/saoudrizwan.claude-dev/settings/`)
 * or, for the Cline CLI, `~/.cline/data/settings/`. Airlock writes the one that exists, else the
 * extension's.
 */
function cline(e: ClientsEnv, codeUser: string): ClientDef {
  const extDir = join(codeUser, 'globalStorage', 'saoudrizwan.claude-dev');
  const ext = join(extDir, 'settings', 'cline_mcp_settings.json');
  const cliDir = join(e.home, '.cline');
  const cli = join(cliDir, 'data', 'settings', 'cline_mcp_settings.json');
  const target = firstExisting([ext, cli], existsSync(extDir) || !existsSync(cliDir) ? ext : cli);
  return {
    id: 'cline',
    label: 'Cline',
    installDir: target === ext ? extDir : cliDir,
    target: json(target, ['mcpServers']),
    sources: () => [
      json(target, ['mcpServers']),
      ...(target !== cli && existsSync(cli) ? [json(cli, ['mcpServers'])] : []),
    ],
    entry: ENTRY.cline,
    note: 'Cline picks the change up by itself; its MCP Servers view shows the server.',
  };
}
