import type { RemoteProbeResult } from '../../preload/api.js';
import type { CallToolResult } from '../tools/types.js';
import { Redactor } from './redact.js';
import { connectUpstream, describeFailure, listAllTools } from './upstream.js';

export interface ProbeOptions {
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
  version: string;
  /** Also call one tool (the conformance suite's tools_call and sse-retry scenarios need a call). */
  call?: { name: string; arguments: Record<string, unknown> };
}

export interface ProbeOutcome extends RemoteProbeResult {
  callResult?: CallToolResult;
}

/**
 * Connects with the gateway's own client code (connectUpstream), lists the
 * tools and optionally calls one; never throws for a server problem — the
 * outcome says what went wrong, secrets redacted.
 */
export async function probeRemote(o: ProbeOptions): Promise<ProbeOutcome> {
  const redactor = new Redactor();
  redactor.set(Object.values(o.headers));
  let up;
  try {
    up = await connectUpstream({ url: o.url, headers: o.headers, timeoutMs: o.timeoutMs, clientVersion: o.version });
  } catch (err) {
    return { ok: false, detail: redactor.text(describeFailure(err)), tools: [] };
  }
  const base = {
    transport: up.transport,
    ...(up.protocolVersion ? { protocolVersion: up.protocolVersion } : {}),
    ...(serverOf(up.client.getServerVersion()) ?? {}),
  };
  try {
    const tools = await listAllTools(up, o.timeoutMs);
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
      const result = (await up.client.callTool({ name: o.call.name, arguments: o.call.arguments }, { timeout: o.timeoutMs })) as CallToolResult;
      out.callResult = redactor.result(result);
      if (result.isError) return { ...out, ok: false, detail: `${o.call.name} returned an error` };
    }
    return out;
  } catch (err) {
    return { ok: false, ...base, detail: redactor.text(describeFailure(err)), tools: [] };
  } finally {
    await up.close();
  }
}

function serverOf(v: { name: string; version: string } | undefined): { server: { name: string; version: string } } | undefined {
  return v ? { server: { name: v.name, version: v.version } } : undefined;
}
