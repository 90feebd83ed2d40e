import { parseArgs } from 'node:util';
import type { RemoteView } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import { validateToken } from '../remote/validate.js';
import { withControl } from './context.js';
import { headerValues } from './header-values.js';
import { loginCommand, logoutCommand } from './remote-login.js';
import { probeCommand } from './remote-probe.js';
import { UPDATE_OPTIONS, updateCommand } from './remote-update.js';
import {
  isLocalAdd,
  joinArgValues,
  LOCAL_OPTIONS,
  processExtras,
  stdioFromFlags,
  whereOf,
} from './remote-local.js';
import { SANDBOX_OPTIONS, sandboxFromFlags } from './remote-sandbox.js';
import { REMOTE_USAGE } from './usage.js';
import { out, readStdin } from './terminal.js';

const OPTIONS = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  header: { type: 'string', multiple: true },
  'header-env': { type: 'string', multiple: true },
  'headers-stdin': { type: 'boolean' },
  'bearer-stdin': { type: 'boolean' },
  'url-stdin': { type: 'boolean' },
  call: { type: 'string' },
  args: { type: 'string' },
  timeout: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret-stdin': { type: 'boolean' },
  'client-secret-env': { type: 'string' },
  'client-metadata-url': { type: 'string' },
  scope: { type: 'string' },
  'no-browser': { type: 'boolean' },
  'oauth-auto': { type: 'boolean' },
  ...LOCAL_OPTIONS,
  ...UPDATE_OPTIONS,
  ...SANDBOX_OPTIONS,
  'elicit-defaults': { type: 'boolean' },
} as const;

/** `airlock remote …` (issue 4). Returns the exit code; throws for the caller to print. */
export async function remoteCommand(rawArgv: string[]): Promise<number> {
  const argv = joinArgValues(rawArgv);
  const {
    values: v,
    positionals,
    tokens,
  } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
    tokens: true,
  });
  // Everything after `--` is a local server's argv (issue 15), never flags of ours.
  const dashDash = tokens.findIndex((t) => t.kind === 'option-terminator');
  const afterDashDash = dashDash < 0 ? [] : argv.slice(tokens[dashDash]!.index + 1);
  const [sub, a, b] = positionals;
  const dataDir = v['data-dir'];
  switch (sub) {
    case 'add': {
      if (a && isLocalAdd(v, afterDashDash) && positionals.length === 2 + afterDashDash.length) {
        const sandbox = sandboxFromFlags(v);
        const stdio = { ...stdioFromFlags(v, afterDashDash), ...(sandbox ? { sandbox } : {}) };
        return withControl(dataDir, async ({ api, running }) =>
          reportAdded(await api.addRemote({ name: a, stdio }), v.json === true, running),
        );
      }
      // --url-stdin: the URL itself is the secret (docs/security.md, "No credentials of a server URL") — read off the command line,
      // where `ps` shows it, and kept in the vault whole (every path segment and query value).
      const urlStdin = v['url-stdin'] === true;
      if (!a || (urlStdin ? b : !b)) break;
      if (urlStdin && (v['headers-stdin'] || v['bearer-stdin']))
        throw new ControlError(
          'INVALID',
          '--url-stdin reads standard input, as --headers-stdin and --bearer-stdin do: give the ' +
            'headers with --header-env instead.',
        );
      const headers = await headerValues(v, readStdin);
      const bearerToken = v['bearer-stdin']
        ? validateToken(await readStdin('Paste the bearer token'))
        : undefined;
      const url = urlStdin ? await readStdin('Paste the server URL') : b!;
      return withControl(dataDir, async ({ api, running }) => {
        const view = await api.addRemote({
          name: a,
          url,
          headers,
          ...(bearerToken ? { bearerToken } : {}),
          ...(urlStdin ? { urlSecret: true } : {}),
        });
        return reportAdded(view, v.json === true, running);
      });
    }
    case 'list':
      return withControl(dataDir, async ({ api }) => {
        const remotes = await api.listRemotes();
        if (v.json) out(JSON.stringify(remotes));
        else if (remotes.length === 0)
          out(
            'No servers. Add one with: airlock remote add NAME URL, or airlock remote add NAME -- COMMAND ARG...',
          );
        else for (const r of remotes) out(formatRemote(r));
        return 0;
      });
    case 'update': {
      if (!a || b) break;
      // A URL that is itself the secret (a server added with --url-stdin) is replaced the same
      // way, off the command line where `ps` shows it.
      if (v['url-stdin'] === true) {
        if (v.url !== undefined)
          throw new ControlError('INVALID', 'Give --url or --url-stdin, not both.');
        v.url = await readStdin('Paste the server URL');
      }
      // Sandbox flags (issue 35) and --enable/--relay/--url (issue 27) in one patch; what widens
      // waits for the user in Airlock's window (gateway/loosening.ts).
      const sandbox = sandboxFromFlags(v);
      return withControl(dataDir, ({ api }) =>
        updateCommand(api, a, v, out, sandbox ? { sandbox, format: formatRemote } : undefined),
      );
    }
    case 'remove':
      if (!a) break;
      return withControl(dataDir, async ({ api }) => {
        await api.removeRemote(a);
        out(`Removed "${a}" and its stored credentials.`);
        return 0;
      });
    case 'refresh':
      return withControl(dataDir, async ({ api }) => {
        const remotes = await api.refreshRemote(a);
        if (v.json) out(JSON.stringify(remotes));
        else for (const r of remotes) out(formatRemote(r));
        return remotes.every((r) => r.state !== 'error') ? 0 : 1;
      });
    case 'login': {
      if (!a) break;
      const clientSecret = v['client-secret-stdin']
        ? validateToken(await readStdin('Paste the client secret'))
        : undefined;
      const options = {
        ...(v['client-id'] ? { clientId: v['client-id'] } : {}),
        ...(clientSecret ? { clientSecret } : {}),
        ...(v['client-metadata-url'] ? { clientMetadataUrl: v['client-metadata-url'] } : {}),
        ...(v.scope ? { scope: v.scope } : {}),
      };
      return withControl(dataDir, ({ api }) =>
        loginCommand(api, a, { browser: !v['no-browser'], json: v.json === true, options }),
      );
    }
    case 'logout':
      if (!a) break;
      return withControl(dataDir, ({ api }) => logoutCommand(api, a, v.json === true));
    case 'probe':
      if (!a) break;
      return probeCommand(a, v);
  }
  throw new ControlError('INVALID', `usage:\n${REMOTE_USAGE}`);
}

/**
 * After `remote add`, one rule for URL and local servers (issue 29, item 8): the server is saved
 * either way; one that cannot be reached or started exits 1 with a sentence on stderr saying so
 * and what to do (stdout keeps the view, for scripts). A server that answers but wants an OAuth
 * sign-in is the usual first step of one, not a failure: exit 0 with the next step.
 */
function reportAdded(view: RemoteView, json: boolean, running: boolean): number {
  out(json ? JSON.stringify(view) : `Added "${view.name}".\n${formatRemote(view)}`);
  if (view.state !== 'error') return 0;
  const n = view.name;
  if (view.auth?.signInRequired) {
    process.stderr.write(
      `airlock: "${n}" is saved and asks for a sign-in: airlock remote login ${n}\n`,
    );
    return 0;
  }
  process.stderr.write(
    `airlock: "${n}" is saved, but it is not reachable yet: ${view.detail ?? 'unknown error'}\n` +
      (running
        ? '  Airlock keeps trying in the background, waiting longer each time (up to a minute).\n'
        : '  It is tried again when Airlock starts (airlock serve).\n') +
      `  Once it is fixed, "airlock remote refresh ${n}" tries at once; "airlock remote list" shows its state;\n` +
      `  to change or drop it: "airlock remote remove ${n}" (then add it again), or Edit on the Servers page.\n`,
  );
  return 1;
}

/** One line of `remote list`; the URL is the view's, with query credentials masked (issue 29, item 5). */
export function formatRemote(r: RemoteView): string {
  const state = r.state === 'error' ? `error: ${r.detail ?? ''}` : r.state;
  const signIn = r.auth?.signInRequired && r.state !== 'error' ? r.auth.signInRequired : '';
  const oauth = r.auth?.signedIn
    ? `signed in${r.auth.issuer ? ` at ${r.auth.issuer}` : ''}${r.auth.renews ? ', renews itself' : ''}`
    : '';
  const extras = [
    r.hasToken ? 'token' : '',
    oauth,
    signIn,
    r.headerNames.length ? `headers: ${r.headerNames.join(', ')}` : '',
    ...processExtras(r),
    r.state === 'ready' && r.warning ? r.warning : '',
  ]
    .filter(Boolean)
    .join('; ');
  return `${r.name}\t${whereOf(r)}\t${state}\t${r.toolCount} tools${extras ? `\t(${extras})` : ''}`;
}
