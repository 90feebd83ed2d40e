import type { RemoteProbeResult } from '../../common/contract/index.js';
import type { CallToolResult } from '../tools/types.js';
import { MemoryVault } from '../platform/vault/vault.js';
import { Redactor } from './connection/redact.js';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { RelayMethod } from '../tools/relay.js';
import { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import type { JsonSchema } from '../tools/types.js';
import { connectUpstream, describeFailure, listAllTools } from './upstream/upstream.js';
import { probeSignIn, type ProbeOAuth } from './oauth/probe-auth.js';
import { urlSecretsIn, urlSecretValues } from '../platform/url-secrets.js';

export type { ProbeOAuth };

export interface ProbeOptions {
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
  version: string;
  /** Also call one tool (the conformance suite's tools_call and sse-retry scenarios need a call). */
  call?: { name: string; arguments: Record<string, unknown> };
  /**
   * Answer a form elicitation by accepting each field's schema default (the probe has no user;
   * the conformance suite's elicitation-sep1034-client-defaults). Otherwise elicitation,
   * sampling and roots requests are refused with the reason.
   */
  elicitDefaults?: boolean;
  /** OAuth for servers that ask for it (issue 10); without a static Authorization header only. */
  oauth?: ProbeOAuth;
  /**
   * What checks the call's result against the tool's output schema (checkedOutput). Default: a
   * pool made for the check and closed after it. Tests pass one whose budget they run out.
   */
  schemaChecks?: SchemaWorkerPool;
}

export interface ProbeOutcome extends RemoteProbeResult {
  callResult?: CallToolResult;
}

/**
 * Connects with the gateway's own client code (connectUpstream), lists the
 * tools and optionally calls one; never throws for a server problem — the
 * outcome says what went wrong, secrets redacted. An OAuth server is reported
 * as "sign-in required", or, with `oauth.auto` (a testing aid), signed in to
 * on the spot with tokens that live only in memory.
 */
export async function probeRemote(o: ProbeOptions): Promise<ProbeOutcome> {
  const redactor = new Redactor();
  const secrets = new Set<string>([
    ...Object.values(o.headers),
    // A credential in the query string (issue 29, item 5) may come back in an error text.
    ...urlSecretValues(urlSecretsIn(o.url.href)),
  ]);
  const sync = () => redactor.set([...secrets]);
  sync();
  const oauth =
    o.headers.Authorization === undefined
      ? probeSignIn(o.url, o.oauth ?? { auto: false }, new MemoryVault(), o.timeoutMs, (v) =>
          secrets.add(v),
        )
      : undefined;
  const describe = (err: unknown) => {
    sync();
    return redactor.text(oauth?.describe(err) ?? describeFailure(err));
  };
  let up;
  try {
    up = await (oauth?.withStepUp ?? run)(() =>
      connectUpstream({
        url: o.url,
        headers: o.headers,
        timeoutMs: o.timeoutMs,
        clientVersion: o.version,
        onRelay: (method, params) => probeAnswer(method, params, o.elicitDefaults === true),
        ...(oauth ? { authProvider: oauth.session } : {}),
      }),
    );
  } catch (err) {
    return { ok: false, detail: describe(err), tools: [] };
  }
  const base = {
    transport: up.transport,
    ...(up.protocolVersion ? { protocolVersion: up.protocolVersion } : {}),
    ...(serverOf(up.client.getServerVersion()) ?? {}),
  };
  const step = oauth?.withStepUp ?? run;
  try {
    const tools = await step(() => listAllTools(up, o.timeoutMs));
    const out: ProbeOutcome = {
      ok: true,
      ...base,
      tools: tools.map((t) => ({
        name: t.name,
        ...(t.title ? { title: t.title } : {}),
        description: t.description ?? '',
        readOnlyHint: t.annotations?.readOnlyHint === true,
      })),
    };
    if (o.call) {
      const call = o.call;
      const result = (await step(() =>
        up.client.callTool(
          { name: call.name, arguments: call.arguments },
          { timeout: o.timeoutMs },
        ),
      )) as CallToolResult;
      sync();
      const schema = tools.find((t) => t.name === call.name)?.outputSchema as
        JsonSchema | undefined;
      const problem = schema && (await checkedOutput(schema, result, o.schemaChecks));
      if (problem) return { ok: false, ...base, detail: redactor.text(problem), tools: [] };
      out.callResult = redactor.result(result);
      if (result.isError) return { ...out, ok: false, detail: `${call.name} returned an error` };
    }
    return out;
  } catch (err) {
    return { ok: false, ...base, detail: describe(err), tools: [] };
  } finally {
    await up.close();
  }
}

const run = <T>(op: () => Promise<T>): Promise<T> => op();

/**
 * The call's `structuredContent` against the tool's `outputSchema`, as a gateway connection checks
 * it (remote-calls.ts): through the schema pool — inline when cheap, else in a worker within the
 * budget — never the SDK's own check (its Ajv with backtracking RegExp; the client lets every
 * result pass, upstream-client.ts), nor a synchronous one, which a recursive `$ref` fan-out would
 * hold for hours. The SDK still refuses a result without structured content. Null: it may go on.
 */
async function checkedOutput(
  schema: JsonSchema,
  result: CallToolResult,
  given: SchemaWorkerPool | undefined,
): Promise<string | null> {
  if (result.structuredContent === undefined || result.isError) return null;
  const pool = given ?? new SchemaWorkerPool();
  try {
    const check = await pool.checkResult(schema, result.structuredContent);
    if (check === null) return null;
    return 'mismatch' in check
      ? `Structured content does not match the tool's output schema: ${check.mismatch}`
      : `Could not check the structured content against the tool's output schema: ${check.unchecked}`;
  } finally {
    if (!given) await pool.close();
  }
}

/** The probe's answer to a server→client request: form defaults when asked for, else a refusal. */
async function probeAnswer(
  method: RelayMethod,
  params: Record<string, unknown>,
  elicitDefaults: boolean,
): Promise<Record<string, unknown>> {
  if (method === 'elicitation/create' && elicitDefaults && params.mode !== 'url') {
    const schema = params.requestedSchema as
      { properties?: Record<string, { default?: unknown }> } | undefined;
    const content: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(schema?.properties ?? {}))
      if (p.default !== undefined) content[k] = p.default;
    return { action: 'accept', content };
  }
  throw new ProtocolError(
    ProtocolErrorCode.InvalidRequest,
    `airlock remote probe has no user to answer ${method}` +
      (method === 'elicitation/create' ? ' (--elicit-defaults accepts form defaults)' : ''),
  );
}

function serverOf(
  v: { name: string; version: string } | undefined,
): { server: { name: string; version: string } } | undefined {
  return v ? { server: { name: v.name, version: v.version } } : undefined;
}
