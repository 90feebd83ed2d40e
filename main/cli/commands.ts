import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  ControlError,
  type ToolRef,
  type ToolView,
  type VaultView,
} from '../../common/contract/index.js';
import { fileVaultTradeOff, keySource, VAULT_FILE } from '../platform/vault/file-vault.js';
import { socketControlClient } from './socket-client.js';
import { clientSetups } from '../clients/client-setup.js';
import { existingDataDir } from '../platform/paths.js';
import { confirmedInWindow } from './confirm-in-window.js';
import { cliVault, runningServer, withControl } from './context.js';
import { controlUrl } from './open.js';

type Out = (line: string) => void;
const out: Out = (line) => process.stdout.write(line + '\n');

export async function status(o: {
  dataDir?: string;
  json?: boolean;
  showControlUrl?: boolean;
}): Promise<number> {
  // A query: it makes nothing, and a read-only data directory can still be asked (paths.ts).
  const dataDir = existingDataDir(o.dataDir);
  const info = runningServer(dataDir);
  const vault = await vaultView(dataDir, info?.controlSocket);
  // Only on request (issue 29.4): the control URL carries the control token.
  const control = info && o.showControlUrl ? await controlUrl(dataDir, info) : undefined;
  if (o.json)
    out(
      JSON.stringify(
        info
          ? { running: true, ...info, ...(control ? { controlUrl: control } : {}), dataDir, vault }
          : { running: false, dataDir, vault },
      ),
    );
  else if (info)
    out(
      `Airlock ${info.version} is running (pid ${info.pid}).\n  MCP URL:  ${info.mcpUrl}\n${control ? `  Control:  ${control}\n` : ''}  Data dir: ${dataDir}\n${describeVault(vault)}${control ? '' : '\n  The control page: airlock open (or airlock status --show-control-url)'}`,
    );
  else
    out(
      `Airlock is not running for ${dataDir}.\n${describeVault(vault)}\nStart it with: airlock serve${o.dataDir ? ` --data-dir ${o.dataDir}` : ''}`,
    );
  return info ? 0 : 1;
}

/** The running server's answer when it can be asked without a keychain; else what a start would use. */
async function vaultView(dataDir: string, socket: string | undefined): Promise<VaultView> {
  if (socket && process.platform !== 'win32') {
    try {
      const v = (await socketControlClient(socket).getStatus()).vault;
      if (v) return v;
    } catch {
      // an older server, or one that just stopped: say what a start would use
    }
  }
  // What a start with this environment would use: `--vault file` / AIRLOCK_VAULT=file decides
  // before anything else (select.ts), so a stopped server's status said "OS keychain" under it.
  const choice = cliVault();
  if (choice === 'keychain') return { kind: 'keychain', why: 'chosen with --vault keychain' };
  if (choice === 'file' || existsSync(join(dataDir, VAULT_FILE))) {
    const source = keySource(dataDir);
    return {
      kind: 'file',
      why:
        choice === 'file'
          ? 'chosen with --vault file (or AIRLOCK_VAULT=file)'
          : `this data directory has a file vault (${VAULT_FILE})`,
      tradeOff: fileVaultTradeOff(source),
    };
  }
  return {
    kind: 'keychain',
    why: 'the default; where there is none, Airlock uses the encrypted file vault and says so',
  };
}

function describeVault(v: VaultView): string {
  const what = v.kind === 'file' ? 'encrypted file vault' : 'OS keychain';
  return `  Secrets:  ${what}: ${v.why}${v.tradeOff ? `\n            ${v.tradeOff}` : ''}`;
}

export async function agentAdd(
  name: string,
  o: { dataDir?: string; json?: boolean },
): Promise<number> {
  return withControl(o.dataDir, async ({ api, mcpUrl }) => {
    const created = await api.addAgent(name);
    const setup = clientSetups(mcpUrl, created.token);
    if (o.json) {
      out(JSON.stringify({ name: created.agent.name, token: created.token, mcpUrl, setup }));
      return 0;
    }
    out(
      `Agent "${created.agent.name}" added. Its token is shown once; Airlock cannot show it again.\n`,
    );
    out(`  Token:   ${created.token}\n  MCP URL: ${mcpUrl}\n`);
    for (const s of setup)
      out(
        `── ${s.client} (${s.kind === 'command' ? 'run in a terminal' : `paste into ${s.where}`})\n${s.text}\n${s.note ? `   ${s.note}\n` : ''}`,
      );
    return 0;
  });
}

export async function agentList(o: { dataDir?: string; json?: boolean }): Promise<number> {
  return withControl(o.dataDir, async ({ api }) => {
    const agents = await api.listAgents();
    if (o.json) out(JSON.stringify(agents));
    else if (agents.length === 0) out('No agents yet. Add one with: airlock agent add NAME');
    else {
      for (const a of agents)
        out(
          `${a.name}\tadded ${a.createdAt}\t${a.lastSeen ? `last seen ${a.lastSeen}` : 'never seen'}${a.connected ? '\tconnected' : ''}${a.hasToken ? '' : '\tTOKEN MISSING from the vault'}`,
        );
      const lost = agents.filter((a) => !a.hasToken).map((a) => a.name);
      if (lost.length > 0)
        process.stderr.write(
          `airlock: the vault no longer has the token of ${lost.map((n) => `"${n}"`).join(', ')} ` +
            '(was the keychain reset, or a throwaway keyring restarted?). Such an agent cannot connect: ' +
            'run "airlock agent revoke NAME" then "airlock agent add NAME" and give the client the new token. ' +
            'To keep tokens across restarts without an OS keychain, use the file vault (--vault file).\n',
        );
    }
    return 0;
  });
}

export async function agentRevoke(name: string, o: { dataDir?: string }): Promise<number> {
  return withControl(o.dataDir, async ({ api, running }) => {
    await api.revokeAgent(name);
    out(
      `Agent "${name}" revoked; its token no longer works${running ? ', also on the running server' : ''}.`,
    );
    return 0;
  });
}

export async function agentTools(
  name: string,
  o: { dataDir?: string; only?: string; all?: boolean },
): Promise<number> {
  if (Boolean(o.only) === Boolean(o.all))
    throw new Error('Give either --only TOOL[,TOOL…] or --all.');
  const tools = o.only
    ? o.only
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
    : null;
  return withControl(o.dataDir, async ({ api }) => {
    // Each tool goes with its key, read once: a name that passes to another tool before the
    // change applies (or while it waits for the window) is refused, not given.
    const listed = tools && (await api.listTools());
    const named = tools?.map((t) => toolArg(listed!, t)) ?? null;
    await confirmedInWindow(api, () => api.setAgentTools(name, named));
    out(
      tools
        ? `Agent "${name}" may now use only: ${tools.join(', ')}.`
        : `Agent "${name}" may use every enabled tool.`,
    );
    return 0;
  });
}

export async function toolsList(o: {
  dataDir?: string;
  agent?: string;
  json?: boolean;
}): Promise<number> {
  return withControl(o.dataDir, async ({ api }) => {
    const tools = await api.listTools(o.agent);
    if (o.json) out(JSON.stringify(tools));
    else for (const t of tools) out(formatTool(t));
    return 0;
  });
}

export async function toolsSet(
  name: string,
  o: {
    dataDir?: string;
    agent?: string;
    approval?: string;
    enabled?: string;
    confirmDestructive?: boolean;
  },
): Promise<number> {
  if (o.approval === undefined && o.enabled === undefined)
    throw new Error('Nothing to set: give --approval auto|ask and/or --enabled true|false.');
  if (o.approval !== undefined && o.approval !== 'auto' && o.approval !== 'ask')
    throw new Error('--approval must be auto or ask.');
  if (o.enabled !== undefined && o.enabled !== 'true' && o.enabled !== 'false')
    throw new Error('--enabled must be true or false.');
  return withControl(o.dataDir, async ({ api }) => {
    // The tool's key, read once and sent with its name: the change applies to that tool or not at
    // all (CONFLICT), also after waiting for the window; and what is shown below is it.
    const ref = toolArg(await api.listTools(), name);
    const [toolName, key] = typeof ref === 'string' ? [ref, undefined] : [ref.name, ref.key];
    const tool = await confirmedInWindow(api, () =>
      api.setToolPolicy(toolName, {
        ...(key !== undefined ? { key } : {}),
        ...(o.approval ? { approval: o.approval as 'auto' | 'ask' } : {}),
        ...(o.enabled ? { enabled: o.enabled === 'true' } : {}),
        ...(o.agent ? { agent: o.agent } : {}),
        ...(o.confirmDestructive ? { confirmDestructive: true } : {}),
      }),
    );
    // Confirmed in the window (issue 17.7): show the tool as it is now.
    const now =
      tool ??
      (await api.listTools(o.agent)).find((t) =>
        key === undefined ? t.name === toolName : t.key === key,
      );
    if (now) out(formatTool(now));
    return 0;
  });
}

/**
 * A tool named on the command line, as the change is to name it. A public name goes with the key
 * it names now; unknown names go alone (the change refuses them in its own words). A stable key
 * (`source/tool`, as `airlock tools list --json` shows it; no public name holds a "/",
 * tools/naming.ts) names the tool the user saw in a listing even if its public name has passed to
 * another tool since: it goes with the name it bears now.
 */
function toolArg(listed: ToolView[], arg: string): string | ToolRef {
  if (arg.includes('/')) {
    const tool = listed.find((t) => t.key === arg);
    if (!tool)
      throw new ControlError(
        'NOT_FOUND',
        `No tool with the key "${arg}". Run "airlock tools list --json" to see the keys.`,
      );
    return { name: tool.name, key: tool.key };
  }
  const tool = listed.find((t) => t.name === arg);
  return tool ? { name: arg, key: tool.key } : arg;
}

function formatTool(t: ToolView): string {
  const badges = [t.readOnly ? 'read-only' : '', t.destructive ? 'destructive' : '']
    .filter(Boolean)
    .join(',');
  return `${t.name}\t${t.enabled ? 'enabled' : 'disabled'}\t${t.approval}${badges ? `\t${badges}` : ''}${t.agent ? `\t(agent ${t.agent})` : ''}${t.notOffered ? `\t${t.notOffered.text}` : ''}`;
}
