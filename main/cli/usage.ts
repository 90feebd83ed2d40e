import { CLIENT_IDS } from '../../common/contract/index.js';

// The usage lines of the commands that parse their own flags, apart from those commands' code:
// main/cli.ts builds `airlock help` from them at load, and `airlock serve` should not load the
// remote, clients and Google commands (and their packages) to print nothing (issue 34: cold start).

/** `airlock remote add` for a local (stdio) server: see main/cli/remote-local.ts. */
export const LOCAL_USAGE = `  remote add NAME [--cwd DIR] [--env K=V]... [--secret-env K]... -- COMMAND [ARG]...
  remote add NAME --command COMMAND [--arg ARG]... [--cwd DIR] [--env K=V]... [--secret-env K]...
                                           add a local (stdio) server; --secret-env K takes K's value
                                           from this shell's environment and keeps it in the keychain;
                                           its sandbox: --read, --write, --no-files, --network,
                                           --allow-unsandboxed as on remote update
`;

/** `airlock remote update`: see main/cli/remote-update.ts. */
export const UPDATE_USAGE = `  remote update NAME [--enable | --disable] [--relay | --no-relay] [--url-stdin | --url URL] [--json]
                                           change a server; --no-relay refuses its sampling, elicitation
                                           and roots requests. What lets more run (enable, a new URL,
                                           relaying on) waits for you to confirm in Airlock's window
`;

/** A local server's sandbox flags (`remote add`, `remote update`): see main/cli/remote-sandbox.ts. */
export const SANDBOX_USAGE = `  remote update NAME [--read PATH]... [--write PATH]... [--no-files] [--network none|any|HOST,...]
                    [--allow-unsandboxed | --require-sandbox]
                                           change a local server's sandbox (also on remote add): folders it may
                                           read / read and write (each flag replaces that list; default: its
                                           --cwd read-write), network: none, any, or only these hosts
                                           (host, host:port, *.domain; through Airlock's proxy)
`;

/** `airlock remote …`: see main/cli/remote.ts. */
export const REMOTE_USAGE = `  remote add NAME URL [--header-env 'K=VAR']... [--headers-stdin | --bearer-stdin]
                                           add a remote MCP server (header values and token never on the command line)
  remote add NAME --url-stdin [--header-env 'K=VAR']...
                                           add one whose URL is itself the secret (Zapier, Composio, …): read from
                                           stdin, every path segment and query value kept in the keychain, shown as ***
${LOCAL_USAGE}  remote list [--json]                     remote servers and their state
${UPDATE_USAGE}${SANDBOX_USAGE}  remote remove NAME                       remove a server and its stored credentials
  remote refresh [NAME]                    reconnect and re-read tools now
  remote login NAME [--client-id ID [--client-secret-stdin]] [--client-metadata-url URL] [--scope S] [--no-browser] [--json]
                                           sign in to a server that uses OAuth (browser + 127.0.0.1 redirect)
  remote logout NAME [--json]              forget a server's OAuth tokens and revoke them where supported
  remote probe URL [--header-env 'K=VAR']... [--headers-stdin | --bearer-stdin] [--call TOOL [--args JSON] [--elicit-defaults]] [--timeout S] [--json]
               [--oauth-auto [--client-id ID] [--client-secret-env VAR] [--client-metadata-url URL] [--scope S]]
                                           connect without saving, list (and call) tools; exit 1 on failure
                                           (--oauth-auto: testing aid, signs in without a browser;
                                           --elicit-defaults: accept a form elicitation with its defaults)
`;

/** `airlock clients …`: see main/cli/clients.ts. */
export const CLIENTS_USAGE = `  clients list [--project DIR] [--json]    the MCP clients here, their config files and servers
  clients import [CLIENT]... [--dry-run] [--project DIR] [--json]
                                           add the servers configured in those clients (default: all) to Airlock
  clients connect CLIENT [--dry-run] [--remove-imported] [--project DIR] [--json]
                                           write Airlock into CLIENT's config (backup first); --remove-imported
                                           also takes the servers imported from it out of its config
                                           CLIENT: ${CLIENT_IDS.join(', ')}
`;

/** `airlock google …`: see main/cli/google.ts. */
export const GOOGLE_USAGE = `  google client import FILE [--json]       import your Google "Desktop app" OAuth client (client_secret_….json)
  google client set CLIENT_ID --secret-stdin   enter the client ID, and the secret on stdin
  google client show [--json]              the OAuth client in use (never the secret)
  connect google [--read-only] [--account EMAIL] [--no-browser] [--json]
                                           connect (or reconnect) a Google account in the browser
  google accounts [--json]                 connected Google accounts and their state
  google default EMAIL                     use this account when a Google tool is called without \`account\`
  google disconnect EMAIL                  revoke at Google and forget an account's tokens
`;
