import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { ControlApi, GoogleAccountView } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import { openInBrowser, waitOutFlow } from './browser.js';
import { withControl } from './context.js';
import { note, out, readStdin } from './terminal.js';
import { GOOGLE_USAGE } from './usage.js';

const OPTIONS = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  'read-only': { type: 'boolean' },
  account: { type: 'string' },
  'no-browser': { type: 'boolean' },
  'secret-stdin': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `airlock google …` and `airlock connect google …` (issue 5). Returns the exit code; throws for the caller to print. */
export async function googleCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const [top, sub, a, b] = positionals;
  const dataDir = v['data-dir'];
  const json = v.json === true;
  if (v.help || (top === 'google' && sub === 'help')) {
    // `airlock google --help`, `airlock connect google --help`, `airlock google help` (issue 18.6).
    out(
      `Usage: airlock google <subcommand> | airlock connect google\n\n${GOOGLE_USAGE}\nSee docs/google.md for setting up the OAuth client.`,
    );
    return 0;
  }
  if (top === 'connect' && sub === 'google' && !a) {
    return withControl(dataDir, ({ api }) =>
      connect(api, {
        readOnly: v['read-only'],
        account: v.account,
        browser: !v['no-browser'],
        json,
      }),
    );
  }
  if (top === 'google' && sub === 'client') {
    if (a === 'import' && b) {
      const text = await readFile(b, 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new ControlError('INVALID', `Cannot read ${b}: ${err.code ?? err.message}.`);
      });
      return withControl(dataDir, async ({ api }) =>
        printClient(await api.setGoogleClient({ json: text }), json, true),
      );
    }
    if (a === 'set' && b && v['secret-stdin']) {
      const clientSecret = await readStdin('Paste the client secret');
      return withControl(dataDir, async ({ api }) =>
        printClient(await api.setGoogleClient({ clientId: b, clientSecret }), json, true),
      );
    }
    if (a === 'show' || a === undefined) {
      return withControl(dataDir, async ({ api }) => {
        const client = await api.getGoogleClient();
        if (json) out(JSON.stringify(client));
        else if (!client)
          out(
            'No Google OAuth client yet. Import one: airlock google client import client_secret_….json (see docs/google.md).',
          );
        else printClient(client, false, false);
        return 0;
      });
    }
  }
  if (top === 'google' && sub === 'accounts' && !a) {
    return withControl(dataDir, async ({ api }) => {
      const accounts = await api.listGoogleAccounts();
      if (json) out(JSON.stringify(accounts));
      else if (!accounts.length)
        out('No Google account is connected. Connect one: airlock connect google');
      else for (const acct of accounts) out(formatAccount(acct));
      return 0;
    });
  }
  if (top === 'google' && sub === 'default' && a) {
    return withControl(dataDir, async ({ api }) => {
      const accounts = await api.setDefaultGoogleAccount(a);
      if (json) out(JSON.stringify(accounts));
      else {
        const def = accounts.find((x) => x.isDefault);
        out(`${def?.email ?? a} is now the default Google account.`);
        if (def?.state === 'needs_reconnect')
          out(`It needs reconnecting first: airlock connect google --account ${def.email}`);
      }
      return 0;
    });
  }
  if (top === 'google' && sub === 'disconnect' && a) {
    return withControl(dataDir, async ({ api }) => {
      const r = await api.disconnectGoogle(a);
      if (json) out(JSON.stringify(r));
      else
        out(
          `Disconnected ${r.email}: its tokens are gone from the keychain${r.revoked ? ' and Google revoked the access' : ''}.${r.detail ? `\n${r.detail}` : ''}`,
        );
      return 0;
    });
  }
  throw new ControlError('INVALID', `usage:\n${GOOGLE_USAGE}`);
}

async function connect(
  api: ControlApi,
  o: {
    readOnly?: boolean | undefined;
    account?: string | undefined;
    browser: boolean;
    json: boolean;
  },
): Promise<number> {
  const start = await api.startGoogleConnect({
    ...(o.readOnly ? { readOnly: true } : {}),
    ...(o.account ? { account: o.account } : {}),
    openBrowser: false,
  });
  if (o.json) out(JSON.stringify({ event: 'auth_url', ...start }));
  else {
    out(
      `Open this page in your browser to connect a Google account${o.readOnly ? ' (read-only)' : ''}:\n\n  ${start.authUrl}\n`,
    );
    note(
      `Waiting for Google until ${new Date(start.expiresAt).toLocaleTimeString()} (Ctrl-C to cancel)…`,
    );
  }
  const view = await waitOutFlow(
    (waitMs) => api.waitGoogleConnect(start.flowId, waitMs),
    () => api.cancelGoogleConnect(start.flowId),
    async () => o.browser && (await openInBrowser(start.authUrl)),
  );
  if (o.json) out(JSON.stringify({ event: 'done', ...view }));
  if (view.state === 'connected' && view.account) {
    if (!o.json) {
      out(`Connected ${view.account.email}${view.account.readOnly ? ' (read-only)' : ''}.`);
      if (view.account.missingScopes.length)
        out(
          `Not granted: ${view.account.missingScopes.join(', ')} — tools that need them will say so; reconnect to grant them.`,
        );
    }
    return 0;
  }
  if (!o.json)
    note(
      `airlock: ${view.error?.code ?? 'FAILED'}: ${view.error?.message ?? 'The connection did not complete.'}`,
    );
  return 1;
}

function printClient(
  c: { clientId: string; projectId?: string; hasSecret: boolean },
  json: boolean,
  imported: boolean,
): number {
  if (json) out(JSON.stringify(c));
  else {
    out(
      `${imported ? 'Imported' : 'Using'} OAuth client ${c.clientId}${c.projectId ? ` (project ${c.projectId})` : ''}; secret ${c.hasSecret ? 'in the system keychain' : 'MISSING'}.`,
    );
    if (imported) out('Next: airlock connect google');
  }
  return 0;
}

function formatAccount(a: GoogleAccountView): string {
  const state =
    a.state === 'connected'
      ? 'connected'
      : `NEEDS RECONNECT: ${a.detail ?? ''} (airlock connect google --account ${a.email})`;
  const extras = [
    a.readOnly ? 'read-only' : 'read-write',
    a.isDefault ? 'default' : '',
    a.missingScopes.length ? `not granted: ${a.missingScopes.join(', ')}` : '',
  ].filter(Boolean);
  return `${a.email}\t${state}\t${extras.join(', ')}`;
}
