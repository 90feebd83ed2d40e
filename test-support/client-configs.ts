import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ClientsEnv } from '../main/clients/client-defs.js';

/**
 * A fresh temp HOME with a sample MCP config for each client (Linux layout),
 * in the shapes their docs show, with comments where the format allows them.
 * Tests never read or write the real home directory.
 */
type PathKey =
  | 'claudeDesktop'
  | 'claudeJson'
  | 'mcpJson'
  | 'cursor'
  | 'vscodeMcp'
  | 'vscodeSettings'
  | 'windsurf'
  | 'codex'
  | 'gemini'
  | 'geminiProject'
  | 'antigravity'
  | 'zed'
  | 'cline';

export interface SampleHome {
  env: ClientsEnv;
  home: string;
  project: string;
  paths: Record<PathKey, string>;
  secrets: string[];
}

export const SAMPLES = {
  claudeDesktop: `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/Desktop"]
    },
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_desktop_secret_1234" }
    }
  },
  "globalShortcut": "Ctrl+Space"
}
`,
  claudeJson: (project: string) => `{
  "numStartups": 12,
  "mcpServers": {
    "linear": {
      "type": "http",
      "url": "https://mcp.linear.app/mcp",
      "headers": { "Authorization": "Bearer lin_api_secret_5678" }
    },
    "memory": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {} }
  },
  "projects": {
    ${JSON.stringify(project)}: {
      "allowedTools": [],
      "mcpServers": { "proj-db": { "type": "stdio", "command": "uvx", "args": ["mcp-server-sqlite", "--db-path", "dev.db"] } }
    }
  }
}
`,
  mcpJson: `{
  "mcpServers": {
    "sentry.io": { "type": "sse", "url": "https://mcp.sentry.dev/sse" }
  }
}
`,
  cursor: `{
  // Cursor: servers for every project
  "mcpServers": {
    "sentry": {
      "url": "https://mcp.sentry.dev/mcp",
      "headers": { "X-Api-Key": "sentry_secret_9012" } // hosted
    },
    "puppeteer": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-puppeteer"] }
  }
}
`,
  vscodeMcp: `{
\t// VS Code user MCP servers
\t"inputs": [{ "type": "promptString", "id": "gh-token", "password": true }],
\t"servers": {
\t\t"fetch": { "type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"] },
\t\t"gh": {
\t\t\t"type": "http",
\t\t\t"url": "https://api.githubcopilot.com/mcp/",
\t\t\t"headers": { "Authorization": "Bearer \${input:gh-token}" }
\t\t},
\t},
}
`,
  vscodeSettings: `{
  // editor settings
  "editor.fontSize": 14,
  "mcp": {
    "servers": {
      "time": { "command": "uvx", "args": ["mcp-server-time"], "env": { "TZ_KEY": "tz_secret_3456" } }
    }
  }
}
`,
  windsurf: `{
  "mcpServers": {
    "brave-search": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-brave-search"],
      "env": { "BRAVE_API_KEY": "brave_secret_7890" }
    },
    "remote-x": { "serverUrl": "https://x.example.com/mcp" },
    "old": { "command": "npx", "args": ["old-server"], "disabled": true }
  }
}
`,
  codex: `# Codex settings
model = "gpt-5"

[mcp_servers.docs]
# local docs server
command = "npx"
args = ["-y", "docs-mcp"]

[mcp_servers.docs.env]
DOCS_TOKEN = "docs_secret_2468"

[mcp_servers.figma]
url = "https://mcp.figma.com/mcp"
http_headers = { "X-Figma-Token" = "figma_secret_1357" }

# profiles below
[profiles.fast]
model = "gpt-5-mini"
`,
  // Gemini CLI (geminicli.com/docs/tools/mcp-server): settings.json takes comments.
  gemini: `{
  // Gemini CLI settings
  "theme": "Default",
  "mcpServers": {
    "githubCopilot": {
      "httpUrl": "https://api.githubcopilot.com/mcp/",
      "headers": { "Authorization": "Bearer gh_gemini_secret_1111" },
      "timeout": 30000
    },
    "pythonTools": { "command": "python", "args": ["-m", "my_mcp_server"], "env": { "API_KEY": "py_gemini_secret_2222" }, "cwd": "./mcp-servers/python", "trust": false }
  }
}
`,
  geminiProject: `{
  "mcpServers": { "proj-gem": { "command": "node", "args": ["tools/mcp.js"] } }
}
`,
  // Antigravity (Google's migration guide): serverUrl for remote servers.
  antigravity: `{
  "mcpServers": {
    "firebase": { "command": "npx", "args": ["-y", "firebase-tools@latest", "mcp"] },
    "devknowledge": {
      "serverUrl": "https://developerknowledge.googleapis.com/mcp",
      "headers": { "X-goog-api-key": "goog_ag_secret_3333" }
    }
  }
}
`,
  // Zed (zed.dev/docs/ai/mcp): context_servers in settings.json, comments and trailing commas.
  zed: `// Zed settings
{
  "theme": "One Dark",
  "context_servers": {
    "local-mcp-server": { "command": "some-command", "args": ["arg-1", "arg-2"], "env": {} },
    "remote-mcp-server": {
      "url": "https://zed.example.com/mcp",
      "headers": { "Authorization": "Bearer zed_secret_4444" },
    },
    "old-style": { "command": { "path": "uvx", "args": ["mcp-server-git"], "env": {} } },
    "from-extension": { "source": "extension", "settings": {} },
  },
}
`,
  // Cline (docs.cline.bot/mcp/configuring-mcp-servers): streamableHttp must be named.
  cline: `{
  "mcpServers": {
    "brave": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-brave-search"],
      "env": { "BRAVE_API_KEY": "brave_cline_secret_5555" },
      "disabled": false,
      "autoApprove": []
    },
    "remote-cline": {
      "type": "streamableHttp",
      "url": "https://cline.example.com/mcp",
      "headers": { "Authorization": "Bearer cline_secret_6666" }
    }
  }
}
`,
};

export const SAMPLE_SECRETS = [
  'ghp_desktop_secret_1234',
  'lin_api_secret_5678',
  'sentry_secret_9012',
  'tz_secret_3456',
  'brave_secret_7890',
  'docs_secret_2468',
  'figma_secret_1357',
  'gh_gemini_secret_1111',
  'py_gemini_secret_2222',
  'goog_ag_secret_3333',
  'zed_secret_4444',
  'brave_cline_secret_5555',
  'cline_secret_6666',
];

/**
 * `home`: the folder to fill, which a vitest caller makes with test-support/temp-dir.ts (removed
 * after its tests); a fresh temporary one otherwise (Playwright's e2e, which has no vitest hooks).
 */
export function sampleHome(o: { only?: string[]; home?: string } = {}): SampleHome {
  const home = o.home ?? mkdtempSync(join(tmpdir(), 'airlock-home-'));
  const project = join(home, 'work', 'proj');
  const paths: Record<PathKey, string> = {
    claudeDesktop: join(home, '.config', 'Claude', 'claude_desktop_config.json'),
    claudeJson: join(home, '.claude.json'),
    mcpJson: join(project, '.mcp.json'),
    cursor: join(home, '.cursor', 'mcp.json'),
    vscodeMcp: join(home, '.config', 'Code', 'User', 'mcp.json'),
    vscodeSettings: join(home, '.config', 'Code', 'User', 'settings.json'),
    windsurf: join(home, '.codeium', 'windsurf', 'mcp_config.json'),
    codex: join(home, '.codex', 'config.toml'),
    gemini: join(home, '.gemini', 'settings.json'),
    geminiProject: join(project, '.gemini', 'settings.json'),
    antigravity: join(home, '.gemini', 'antigravity-cli', 'mcp_config.json'),
    zed: join(home, '.config', 'zed', 'settings.json'),
    cline: join(
      home,
      '.config',
      'Code',
      'User',
      'globalStorage',
      'saoudrizwan.claude-dev',
      'settings',
      'cline_mcp_settings.json',
    ),
  };
  const texts: Record<PathKey, string> = {
    ...SAMPLES,
    claudeJson: SAMPLES.claudeJson(project),
  };
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(project, { recursive: true });
  for (const [k, p] of Object.entries(paths)) {
    if (o.only && !o.only.includes(k)) continue;
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, texts[k as PathKey]);
  }
  return { env: { home, platform: 'linux' }, home, project, paths, secrets: SAMPLE_SECRETS };
}
