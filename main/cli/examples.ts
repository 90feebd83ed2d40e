/**
 * One or more examples per command (issue 29.7), keyed by the command words of its usage line
 * (help.ts); `airlock COMMAND --help` prints them under the usage. A test checks that every
 * command in the usage has one and that each starts with its command.
 */
export const EXAMPLES: Record<string, string[]> = {
  serve: ['airlock serve --port 0            # any free port; the ready line says which'],
  status: ['airlock status', 'airlock status --json --show-control-url'],
  open: ['airlock open', 'airlock open --no-browser   # only print the URL'],
  'agent add': ['airlock agent add "Claude Code"'],
  'agent list': ['airlock agent list'],
  'agent revoke': ['airlock agent revoke "Claude Code"'],
  'agent tools': ['airlock agent tools Cursor --only gmail_search,calendar_list_events'],
  'tools list': ['airlock tools list --agent Cursor'],
  'tools set': ['airlock tools set gmail_send --approval ask'],
  'vault migrate': ['airlock vault migrate --to file'],
  'remote add': [
    'airlock remote add linear https://mcp.linear.app/mcp --bearer-stdin < token.txt',
    'airlock remote add memory -- npx -y @modelcontextprotocol/server-memory',
    'airlock remote add zapier --url-stdin < zapier-url.txt',
  ],
  'remote list': ['airlock remote list'],
  'remote update': [
    'airlock remote update linear --no-relay',
    'airlock remote update memory --network none --write ~/notes',
  ],
  'remote remove': ['airlock remote remove linear'],
  'remote refresh': ['airlock remote refresh linear'],
  'remote login': ['airlock remote login linear'],
  'remote logout': ['airlock remote logout linear'],
  'remote probe': ['airlock remote probe https://mcp.example.com/mcp --bearer-stdin < token.txt'],
  'clients list': ['airlock clients list'],
  'clients import': ['airlock clients import cursor --dry-run'],
  'clients connect': [
    'airlock clients connect claude-code --dry-run',
    'airlock clients connect gemini',
  ],
  'google client import': ['airlock google client import ~/Downloads/client_secret_123.json'],
  'google client set': ['airlock google client set 123.apps.googleusercontent.com --secret-stdin'],
  'google client show': ['airlock google client show'],
  'connect google': ['airlock connect google --read-only'],
  'google accounts': ['airlock google accounts'],
  'google default': ['airlock google default me@example.com'],
  'google disconnect': ['airlock google disconnect me@example.com'],
  help: [
    'airlock help agent',
    'airlock help clients connect   # or: airlock clients connect --help',
  ],
};
