import { ControlError } from '../../common/contract/index.js';
import { maskUrlSecrets } from '../platform/url-secrets.js';
import { appVersion } from '../platform/version.js';
import type { ProbeOAuth } from '../remote/probe.js';
import { validateRemoteUrl, validateToken } from '../remote/validate.js';
import { headerValues, type HeaderOptions } from './header-values.js';
import { out, readStdin } from './terminal.js';

type ProbeFlags = HeaderOptions & {
  call?: string;
  args?: string;
  timeout?: string;
  json?: boolean;
  'elicit-defaults'?: boolean;
} & OAuthFlags;
type OAuthFlags = {
  'oauth-auto'?: boolean;
  'client-id'?: string;
  'client-secret-env'?: string;
  'client-metadata-url'?: string;
  scope?: string;
};

/** `airlock remote probe URL`: connects without saving, lists (and calls) tools; 1 on failure. */
export async function probeCommand(rawUrl: string, v: ProbeFlags): Promise<number> {
  const url = validateRemoteUrl(rawUrl);
  const headers = await headerValues(v, readStdin);
  if (v['bearer-stdin'])
    headers.Authorization = `Bearer ${validateToken(await readStdin('Paste the bearer token'))}`;
  const timeoutS = v.timeout === undefined ? 15 : Number(v.timeout);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0)
    throw new ControlError('INVALID', '--timeout must be a number of seconds.');
  let args: Record<string, unknown> = {};
  if (v.args !== undefined) {
    try {
      args = JSON.parse(v.args) as Record<string, unknown>;
    } catch {
      throw new ControlError(
        'INVALID',
        `--args must be a JSON object, got ${JSON.stringify(v.args)}.`,
      );
    }
  }
  // The MCP client SDK loads only for commands that connect somewhere (keeps `airlock serve` lean).
  const { probeRemote } = await import('../remote/probe.js');
  const outcome = await probeRemote({
    url,
    headers,
    timeoutMs: timeoutS * 1000,
    version: appVersion(),
    ...(v.call ? { call: { name: v.call, arguments: args } } : {}),
    ...(v['elicit-defaults'] ? { elicitDefaults: true } : {}),
    oauth: probeOAuth(v),
  });
  if (v.json) {
    out(JSON.stringify(outcome));
    return outcome.ok ? 0 : 1;
  }
  if (outcome.transport) {
    const who = outcome.server ? `${outcome.server.name} ${outcome.server.version}` : 'the server';
    out(
      `Connected to ${who} at ${maskUrlSecrets(url.href)} over ${outcome.transport}, protocol ${outcome.protocolVersion ?? 'unknown'}.`,
    );
  }
  if (outcome.ok || outcome.tools.length) {
    out(`${outcome.tools.length} tool${outcome.tools.length === 1 ? '' : 's'}:`);
    for (const t of outcome.tools)
      out(
        `  ${t.name}${t.readOnlyHint ? '  (read-only hint)' : ''}  ${t.description.split('\n')[0]?.slice(0, 100) ?? ''}`,
      );
  }
  if (outcome.callResult) {
    out(`${v.call} →${outcome.callResult.isError ? ' (error)' : ''}`);
    for (const c of outcome.callResult.content ?? [])
      out(c.type === 'text' ? `  ${c.text}` : `  [${c.type}]`);
  }
  if (!outcome.ok)
    process.stderr.write(`airlock: probe failed: ${outcome.detail ?? 'unknown error'}\n`);
  return outcome.ok ? 0 : 1;
}

/** The secret comes from an environment variable, never the command line (where `ps` shows it). */
function probeOAuth(v: OAuthFlags): ProbeOAuth {
  const envName = v['client-secret-env'];
  const secret = envName === undefined ? undefined : process.env[envName];
  if (envName !== undefined && !secret)
    throw new ControlError(
      'INVALID',
      `--client-secret-env ${envName}: that environment variable is empty or not set.`,
    );
  if (secret && !v['client-id'])
    throw new ControlError('INVALID', '--client-secret-env needs --client-id.');
  return {
    auto: v['oauth-auto'] === true,
    ...(v['client-id'] ? { clientId: v['client-id'] } : {}),
    ...(secret ? { clientSecret: secret } : {}),
    ...(v['client-metadata-url'] ? { clientMetadataUrl: v['client-metadata-url'] } : {}),
    ...(v.scope ? { scope: v.scope } : {}),
  };
}
