import { readdirSync, readFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import type { RemoteInput, RemoteView } from '../../common/contract/index.js';
import { CLIENT_IDS } from '../../common/contract/index.js';
import { Logger } from '../platform/log.js';
import { sampleHome, type SampleHome } from '../../test-support/client-configs.js';
import { clientDefs } from './client-defs.js';
import { ClientsControl } from './clients-control.js';
import { tempDir } from '../../test-support/temp-dir.js';

/** Issue 15, "Must hold": import from each client's sample config; write Airlock into each, comments kept, idempotent. */
const MCP_URL = 'http://127.0.0.1:47999/mcp';

function control(h: SampleHome, servers: RemoteView[] = []) {
  const added: RemoteInput[] = [];
  const tokens = new Map<string, string>();
  const c = new ClientsControl({
    env: h.env,
    logger: new Logger({ stderr: false }),
    mcpUrl: () => MCP_URL,
    listServers: async () => servers,
    addServer: async (input) => {
      added.push(input);
      const view: RemoteView = {
        name: input.name,
        url: input.url ?? '',
        enabled: true,
        relay: true,
        sourceId: `remote:${input.name}`,
        headerNames: Object.keys(input.headers ?? {}),
        hasToken: input.bearerToken !== undefined,
        state: 'ready',
        toolCount: 1,
        createdAt: new Date().toISOString(),
        ...(input.origin ? { origin: input.origin } : {}),
        ...(input.stdio
          ? {
              stdio: {
                command: input.stdio.command,
                args: input.stdio.args ?? [],
                env: {},
                secretEnvNames: Object.keys(input.stdio.secretEnv ?? {}),
                sandbox: {
                  read: [],
                  write: [],
                  network: 'none',
                  hosts: [],
                  allowUnsandboxed: false,
                  enforcement: 'none',
                  status: 'blocked',
                  note: '',
                  runtime: [],
                  notGranted: [],
                  refusedHosts: [],
                },
              },
            }
          : {}),
      };
      servers.push(view);
      return view;
    },
    agentToken: async (agent, create) => {
      if (!tokens.has(agent) && create)
        tokens.set(agent, `alk_token_for_${agent.replace(/\W/g, '')}`);
      return tokens.get(agent) ?? null;
    },
  });
  return { c, added, servers, tokens };
}

const jsonc = (text: string) => {
  const errors: ParseError[] = [];
  const v = parseJsonc(text, errors, { allowTrailingComma: true }) as Record<string, unknown>;
  expect(errors).toEqual([]);
  return v;
};
const backups = (path: string) =>
  readdirSync(dirname(path)).filter((n) =>
    n.startsWith(`${path.split('/').pop()}.airlock-backup-`),
  );

describe('client config paths', () => {
  it('per OS', () => {
    const mac = clientDefs({ home: '/Users/me', platform: 'darwin' });
    expect(mac.find((c) => c.id === 'claude-desktop')!.target.path).toBe(
      '/Users/me/Library/Application Support/Claude/claude_desktop_config.json',
    );
    expect(mac.find((c) => c.id === 'vscode')!.target.path).toBe(
      '/Users/me/Library/Application Support/Code/User/mcp.json',
    );
    const win = clientDefs({
      home: 'C:\\Users\\me',
      platform: 'win32',
      appData: 'C:\\Users\\me\\AppData\\Roaming',
    });
    expect(win.find((c) => c.id === 'claude-desktop')!.target.path).toContain(
      join('C:\\Users\\me\\AppData\\Roaming', 'Claude'),
    );
    const linux = clientDefs({ home: '/home/me', platform: 'linux', codexHome: '/opt/codex' });
    expect(linux.map((c) => [c.id, c.target.path])).toEqual([
      ['claude-desktop', '/home/me/.config/Claude/claude_desktop_config.json'],
      ['claude-code', '/home/me/.claude.json'],
      ['cursor', '/home/me/.cursor/mcp.json'],
      ['vscode', '/home/me/.config/Code/User/mcp.json'],
      ['windsurf', '/home/me/.codeium/windsurf/mcp_config.json'],
      ['codex', '/opt/codex/config.toml'],
      ['gemini', '/home/me/.gemini/settings.json'],
      ['antigravity', '/home/me/.gemini/antigravity-cli/mcp_config.json'],
      ['zed', '/home/me/.config/zed/settings.json'],
      [
        'cline',
        '/home/me/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
      ],
    ]);
    // Zed keeps ~/.config/zed on macOS too; %APPDATA%\Zed on Windows. Gemini CLI honours GEMINI_CLI_HOME.
    expect(mac.find((c) => c.id === 'zed')!.target.path).toBe(
      '/Users/me/.config/zed/settings.json',
    );
    expect(win.find((c) => c.id === 'zed')!.target.path).toBe(
      join('C:\\Users\\me\\AppData\\Roaming', 'Zed', 'settings.json'),
    );
    expect(
      clientDefs({ home: '/home/me', platform: 'linux', geminiHome: '/g' }).find(
        (c) => c.id === 'gemini',
      )!.target.path,
    ).toBe('/g/.gemini/settings.json');
    expect(mac.find((c) => c.id === 'cline')!.target.path).toBe(
      '/Users/me/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
    );
  });

  it('Antigravity and Cline: the documented file that exists is the one written', () => {
    const h = sampleHome({ home: tempDir('airlock-home-'), only: [] });
    const def = (id: string) => clientDefs(h.env).find((c) => c.id === id)!;
    expect(def('antigravity').target.path).toBe(h.paths.antigravity);
    expect(def('antigravity').installDir).toBe(dirname(h.paths.antigravity));
    // The IDE's file, once it exists, is used instead.
    const ide = join(h.home, '.gemini', 'antigravity', 'mcp_config.json');
    mkdirSync(dirname(ide), { recursive: true });
    writeFileSync(ide, '{ "mcpServers": {} }');
    expect(def('antigravity').target.path).toBe(ide);
    // Cline: the VS Code extension's file unless only the CLI's folder is there.
    mkdirSync(join(h.home, '.cline'), { recursive: true });
    expect(def('cline').target.path).toBe(
      join(h.home, '.cline', 'data', 'settings', 'cline_mcp_settings.json'),
    );
    mkdirSync(dirname(h.paths.cline), { recursive: true });
    expect(def('cline').target.path).toBe(h.paths.cline);
  });
});

describe('import', () => {
  it('reads stdio and URL entries from every client; a dry run adds nothing; secrets go to the vault-bound fields', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-') });
    const { c, added } = control(h);
    const dry = await c.importClients({ dryRun: true, projectDir: h.project });
    expect(added).toEqual([]);
    const row = (client: string, name: string) =>
      dry.items.find((i) => i.client === client && i.name === name);
    expect(dry.items.map((i) => `${i.client}:${i.name}→${i.action}:${i.as}`).sort()).toEqual(
      [
        'claude-desktop:filesystem→add:filesystem',
        'claude-desktop:github→add:github',
        'claude-code:linear→add:linear',
        'claude-code:memory→add:memory',
        'claude-code:proj-db→add:proj-db',
        'claude-code:sentry.io→add:sentry-io',
        'cursor:sentry→add:sentry',
        'cursor:puppeteer→add:puppeteer',
        'vscode:fetch→add:fetch',
        'vscode:gh→add:gh',
        'vscode:time→add:time',
        'windsurf:brave-search→add:brave-search',
        'windsurf:remote-x→add:remote-x',
        'windsurf:old→skip:',
        'codex:docs→add:docs',
        'codex:figma→add:figma',
        'gemini:githubCopilot→add:githubCopilot',
        'gemini:pythonTools→add:pythonTools',
        'gemini:proj-gem→add:proj-gem',
        'antigravity:firebase→add:firebase',
        'antigravity:devknowledge→add:devknowledge',
        'zed:local-mcp-server→add:local-mcp-server',
        'zed:remote-mcp-server→add:remote-mcp-server',
        'zed:old-style→add:old-style',
        'zed:from-extension→skip:',
        'cline:brave→add:brave',
        'cline:remote-cline→add:remote-cline',
      ].sort(),
    );
    expect(row('windsurf', 'old')!.reason).toBe('disabled in Windsurf');
    expect(row('claude-desktop', 'github')).toMatchObject({
      kind: 'stdio',
      secretNames: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
    });
    expect(row('claude-code', 'linear')).toMatchObject({
      kind: 'url',
      summary: 'https://mcp.linear.app/mcp',
      secretNames: ['Authorization'],
    });
    expect(row('vscode', 'gh')!.warnings.join()).toMatch(/placeholders/);
    expect(row('codex', 'docs')).toMatchObject({
      summary: 'npx -y docs-mcp',
      secretNames: ['DOCS_TOKEN'],
    });
    expect(row('codex', 'figma')).toMatchObject({ kind: 'url', secretNames: ['X-Figma-Token'] });
    // No secret value in what a dry run shows.
    for (const s of h.secrets) expect(JSON.stringify(dry)).not.toContain(s);

    expect(row('gemini', 'githubCopilot')).toMatchObject({
      kind: 'url',
      summary: 'https://api.githubcopilot.com/mcp/',
      secretNames: ['Authorization'],
    });
    expect(row('gemini', 'proj-gem')!.file).toBe(h.paths.geminiProject);
    expect(row('antigravity', 'devknowledge')).toMatchObject({
      kind: 'url',
      secretNames: ['X-goog-api-key'],
    });
    expect(row('zed', 'old-style')).toMatchObject({ kind: 'stdio', summary: 'uvx mcp-server-git' });
    expect(row('cline', 'remote-cline')).toMatchObject({
      kind: 'url',
      secretNames: ['Authorization'],
    });

    const done = await c.importClients({ projectDir: h.project });
    expect(done.added).toHaveLength(25);
    const input = (name: string) => added.find((a) => a.name === name)!;
    expect(input('github')).toEqual({
      name: 'github',
      origin: 'claude-desktop',
      stdio: {
        command: 'docker',
        args: [
          'run',
          '-i',
          '--rm',
          '-e',
          'GITHUB_PERSONAL_ACCESS_TOKEN',
          'ghcr.io/github/github-mcp-server',
        ],
        secretEnv: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_desktop_secret_1234' },
      },
    });
    expect(input('linear')).toEqual({
      name: 'linear',
      origin: 'claude-code',
      url: 'https://mcp.linear.app/mcp',
      bearerToken: 'lin_api_secret_5678',
    });
    expect(input('sentry')).toMatchObject({
      url: 'https://mcp.sentry.dev/mcp',
      headers: { 'X-Api-Key': 'sentry_secret_9012' },
    });
    expect(input('remote-x')).toMatchObject({
      url: 'https://x.example.com/mcp',
      origin: 'windsurf',
    });
    expect(input('docs')!.stdio!.secretEnv).toEqual({ DOCS_TOKEN: 'docs_secret_2468' });
    expect(input('figma')).toMatchObject({ headers: { 'X-Figma-Token': 'figma_secret_1357' } });
    expect(input('githubCopilot')).toMatchObject({
      url: 'https://api.githubcopilot.com/mcp/',
      bearerToken: 'gh_gemini_secret_1111',
      origin: 'gemini',
    });
    expect(input('pythonTools')!.stdio).toMatchObject({
      command: 'python',
      cwd: './mcp-servers/python',
      secretEnv: { API_KEY: 'py_gemini_secret_2222' },
    });
    expect(input('devknowledge')).toMatchObject({
      url: 'https://developerknowledge.googleapis.com/mcp',
      headers: { 'X-goog-api-key': 'goog_ag_secret_3333' },
    });
    expect(input('remote-mcp-server')).toMatchObject({ bearerToken: 'zed_secret_4444' });
    expect(input('remote-cline')).toMatchObject({
      url: 'https://cline.example.com/mcp',
      bearerToken: 'cline_secret_6666',
    });

    // A second import finds them all in Airlock already.
    const again = await c.importClients({ projectDir: h.project });
    expect(again.added).toEqual([]);
    expect(again.items.filter((i) => i.action === 'add')).toEqual([]);
  });

  it('skips Airlock itself, renames a clash with a different server, and lists each client with its files', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-'), only: ['cursor'] });
    const existing = [
      { name: 'sentry', url: 'https://other.example/mcp', origin: 'manual' } as RemoteView,
    ];
    const { c } = control(h, existing);
    await c.connectClient('cursor');
    const plan = await c.importClients({ dryRun: true, clients: ['cursor'] });
    expect(plan.items.map((i) => [i.name, i.action, i.as, i.reason ?? ''])).toEqual([
      ['sentry', 'add', 'sentry-cursor', ''],
      ['puppeteer', 'add', 'puppeteer', ''],
      ['airlock', 'skip', '', 'Airlock itself'],
    ]);
    const list = await c.listClients();
    expect(list.map((x) => [x.id, x.installed, x.connected])).toEqual([
      ['claude-desktop', false, false],
      ['claude-code', true, false],
      ['cursor', true, true],
      ['vscode', false, false],
      ['windsurf', false, false],
      ['codex', false, false],
      ['gemini', false, false],
      ['antigravity', false, false],
      ['zed', false, false],
      ['cline', false, false],
    ]);
    expect(list.find((x) => x.id === 'cursor')!.files).toEqual([
      { path: h.paths.cursor, scope: 'user', exists: true, servers: 2 },
    ]);
  });
});

describe('connect', () => {
  it.each(CLIENT_IDS)(
    '%s: Airlock written in, parsed back by a real parser, comments kept, backup made, second run changes nothing',
    async (id) => {
      const h = sampleHome({ home: tempDir('airlock-home-') });
      const { c } = control(h);
      const def = clientDefs(h.env).find((d) => d.id === id)!;
      const path = def.target.path;
      const original = existsSync(path) ? readFileSync(path, 'utf8') : '';

      const first = await c.connectClient(id);
      const text = readFileSync(path, 'utf8');
      expect(first.files[0]).toMatchObject({ path, changed: true, entry: 'added' });
      const token = `alk_token_for_${def.label.replace(/\W/g, '')}`;
      if (def.target.format === 'toml') {
        const parsed = parseToml(text) as { mcp_servers: Record<string, unknown>; model: string };
        expect(parsed.mcp_servers.airlock).toEqual({
          url: MCP_URL,
          http_headers: { Authorization: `Bearer ${token}` },
        });
        expect(parsed.mcp_servers.docs).toBeDefined();
        expect(parsed.model).toBe('gpt-5');
      } else {
        const parsed = jsonc(text);
        let servers = parsed as Record<string, unknown>;
        for (const k of def.target.keyPath) servers = servers[k] as Record<string, unknown>;
        expect(servers.airlock).toEqual(def.entry(MCP_URL, token));
        expect(Object.keys(servers).length).toBeGreaterThan(1); // the user's own servers are still there
      }
      // Every comment line and every other line of the user's file is still there, in order.
      const kept = original.split('\n').filter((l) => l.trim() !== '');
      let at = 0;
      for (const line of kept) {
        const found = text.indexOf(line.trim(), at);
        expect(found, `line kept: ${line}`).toBeGreaterThanOrEqual(0);
        at = found;
      }
      expect(first.files[0]!.backup).toBeDefined();
      expect(readFileSync(first.files[0]!.backup!, 'utf8')).toBe(original);

      const second = await c.connectClient(id);
      expect(second.files[0]).toMatchObject({ changed: false, entry: 'unchanged' });
      expect(readFileSync(path, 'utf8')).toBe(text);
      expect(backups(path)).toHaveLength(1);
    },
  );

  it('--dry-run writes nothing; a missing file is created when the client is installed; a missing client is refused', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-'), only: [] });
    const { c, tokens } = control(h);
    const dry = await c.connectClient('claude-code', { dryRun: true });
    expect(dry.files[0]).toMatchObject({ changed: true, entry: 'added' });
    expect(existsSync(h.paths.claudeJson)).toBe(false);
    expect(tokens.size).toBe(0); // no agent created on a dry run
    const real = await c.connectClient('claude-code');
    expect(real.files[0]!.backup).toBeUndefined();
    expect(jsonc(readFileSync(h.paths.claudeJson, 'utf8'))).toEqual({
      mcpServers: {
        airlock: {
          type: 'http',
          url: MCP_URL,
          headers: { Authorization: 'Bearer alk_token_for_ClaudeCode' },
        },
      },
    });
    await expect(c.connectClient('windsurf')).rejects.toThrow(
      /Windsurf does not seem to be installed/,
    );
    mkdirSync(join(h.home, '.codeium', 'windsurf'), { recursive: true });
    await expect(c.connectClient('windsurf')).resolves.toMatchObject({
      files: [{ entry: 'added' }],
    });
  });

  it('--remove-imported takes the imported servers out of the client (comments and other settings stay)', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-') });
    const { c } = control(h);
    await c.importClients({ clients: ['codex', 'cursor', 'claude-code'], projectDir: h.project });

    const codex = await c.connectClient('codex', { removeImported: true });
    expect(codex.files[0]).toMatchObject({
      entry: 'added',
      removed: ['docs', 'figma'],
      changed: true,
    });
    const toml = readFileSync(h.paths.codex, 'utf8');
    expect(parseToml(toml)).toEqual({
      model: 'gpt-5',
      mcp_servers: {
        airlock: { url: MCP_URL, http_headers: { Authorization: 'Bearer alk_token_for_Codex' } },
      },
      profiles: { fast: { model: 'gpt-5-mini' } },
    });
    expect(toml).toContain('# Codex settings');
    expect(toml).toContain('# profiles below');
    expect(toml).not.toContain('docs_secret_2468');

    const cursor = await c.connectClient('cursor', { removeImported: true });
    expect(cursor.files[0]!.removed.sort()).toEqual(['puppeteer', 'sentry']);
    const cursorText = readFileSync(h.paths.cursor, 'utf8');
    expect(cursorText).toContain('// Cursor: servers for every project');
    expect(Object.keys(jsonc(cursorText).mcpServers as object)).toEqual(['airlock']);

    // Claude Code: user scope, the project's entry in ~/.claude.json and the project's .mcp.json.
    const cc = await c.connectClient('claude-code', {
      removeImported: true,
      projectDir: h.project,
    });
    expect(cc.files.map((f) => [f.path, f.removed.sort()])).toEqual([
      [h.paths.claudeJson, ['linear', 'memory', 'proj-db']],
      [h.paths.mcpJson, ['sentry.io']],
    ]);
    const cj = jsonc(readFileSync(h.paths.claudeJson, 'utf8')) as {
      mcpServers: object;
      numStartups: number;
      projects: Record<string, { mcpServers: object; allowedTools: unknown[] }>;
    };
    expect(Object.keys(cj.mcpServers)).toEqual(['airlock']);
    expect(cj.numStartups).toBe(12);
    expect(cj.projects[h.project]).toEqual({ allowedTools: [], mcpServers: {} });
    // A second run changes nothing.
    const again = await c.connectClient('claude-code', {
      removeImported: true,
      projectDir: h.project,
    });
    expect(again.files.every((f) => !f.changed)).toBe(true);
  });

  it('refuses to edit a file it cannot parse, and says which', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-'), only: ['cursor'] });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(h.paths.cursor, '{ "mcpServers": { "x": ');
    const { c } = control(h);
    await expect(c.connectClient('cursor')).rejects.toThrow(
      /mcp\.json is not valid JSON .* fix it first/,
    );
    expect(readFileSync(h.paths.cursor, 'utf8')).toBe('{ "mcpServers": { "x": ');
  });
});
