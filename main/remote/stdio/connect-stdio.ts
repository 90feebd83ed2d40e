import { codeUnits, textPrefix } from '../../../common/text-cut.js';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { connectWithin } from '../upstream/connect-within.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import type { Upstream, UpstreamOptions } from '../upstream/upstream.js';
import { ChildProcessTransport } from './child-transport.js';
import { StdioError } from './errors.js';
import { featureClientOptions, wireFeatures } from '../upstream/upstream-features.js';
import type { StdioProcessLog } from './process-log.js';
import type { Launch } from './process-group.js';
import type { PreparedLaunch } from './sandbox/launcher.js';

/** A local server's launch (argv, cwd, full environment) and its process log. */
export interface StdioTarget {
  launch: Launch;
  /** The OS sandbox around `launch`, made for each start (issue 35, sandbox/launcher.ts). */
  prepare?: () => Promise<PreparedLaunch>;
  processLog: StdioProcessLog;
  /**
   * Bound on start-up + handshake + first list. Longer than a URL server's
   * connect bound by default: `npx -y pkg` may download the package first.
   */
  startMs?: number;
  /** Skip the 2026 era probe (set after a server failed it). */
  legacy?: boolean;
}

export const STDIO_START_MS = 30_000;

/**
 * Starts the server process and connects an MCP client over its stdio — the
 * `kind: 'stdio'` branch of connectUpstream (main/remote/upstream/upstream.ts). The
 * returned Upstream behaves like a URL one: closing it ends the whole process
 * group; the process ending on its own closes it, and ServerConnection.fail
 * (connection/server-connection.ts) starts it again after a RestartTimer wait
 * (connection/restart-backoff.ts): the same path as a dropped URL server.
 */
export function connectStdio(o: UpstreamOptions, t: StdioTarget): Promise<Upstream> {
  return t.processLog.track(startAndConnect(o, t));
}

async function startAndConnect(o: UpstreamOptions, t: StdioTarget): Promise<Upstream> {
  const epoch = t.processLog.epoch;
  try {
    return await attempt(o, t);
  } catch (err) {
    if (!(err instanceof EraProbeFailed)) throw err;
    // Airlock ended this server meanwhile (removed, disabled, stopping): no second process.
    if (t.processLog.epoch !== epoch || o.signal?.aborted) throw err.cause as Error;
    // A server that could not take the 2026 era probe (some exit on any request before
    // `initialize`) gets a fresh process and the 2025 handshake.
    return attempt(o, { ...t, legacy: true });
  }
}

class EraProbeFailed extends Error {}

async function attempt(o: UpstreamOptions, t: StdioTarget): Promise<Upstream> {
  const ms = t.startMs ?? Math.max(o.timeoutMs, STDIO_START_MS);
  let pid: number | undefined;
  const transport = new ChildProcessTransport({
    launch: t.launch,
    ...(t.prepare ? { prepare: t.prepare } : {}),
    onStderr: (line) => t.processLog.stderr(line),
    onSpawn: (p) => {
      pid = p;
      t.processLog.spawned(p);
    },
    onExit: (why) => t.processLog.exited(pid, why),
    stderrTail: () => t.processLog.stderrTail(),
  });
  const client = new UpstreamClient(
    { name: 'airlock', title: 'Airlock', version: o.clientVersion },
    {
      // Probing the 2026 era in place is safe on a process we own: a server that exits on the
      // unknown `server/discover` request fails this attempt, and the retry runs `legacy` (below).
      versionNegotiation: { mode: t.legacy ? 'legacy' : 'auto' },
      // Resources, prompts, logs and relays as for a URL server (issue 14 on local servers too).
      ...featureClientOptions(o),
    },
  );
  wireFeatures(client, o);
  let closing = false;
  let lastError: Error | undefined;
  client.onerror = (err) => {
    if (closing) return;
    if (err instanceof StdioError) lastError = err;
    o.onError?.(err);
  };
  client.onclose = () => {
    if (!closing) o.onClose?.();
  };
  // Stopped while starting: the process ends the normal way (transport.close: stdin, SIGTERM, the
  // grace, SIGKILL), which also fails the handshake below.
  const stop = () => void transport.close().catch(() => {});
  o.signal?.addEventListener('abort', stop, { once: true });
  if (o.signal?.aborted) stop();
  try {
    await connectWithin(
      client,
      transport,
      ms,
      () =>
        new StdioError(
          `started but did not answer within ${Math.round(ms / 1000)} s${tailOf(t.processLog)}`,
        ),
    );
  } catch (err) {
    o.signal?.removeEventListener('abort', stop);
    closing = true;
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    // The process's own exit says more than "connection closed".
    const why = lastError ?? (err instanceof StdioError ? err : startFailure(err, t.processLog));
    if (!t.legacy && err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed)
      throw new EraProbeFailed(why.message, { cause: why });
    throw why;
  }
  // Connected: from here a stop closes the connection (ServerConnection.stop), as for any other.
  o.signal?.removeEventListener('abort', stop);
  return {
    client,
    transport: 'stdio',
    protocolVersion: client.getNegotiatedProtocolVersion(),
    hasSession: () => false,
    close: async () => {
      closing = true;
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
    },
  };
}

function tailOf(m: StdioProcessLog): string {
  const tail = m.stderrTail();
  return tail ? `; its last output: ${tail}` : '';
}

function startFailure(err: unknown, m: StdioProcessLog): StdioError {
  const message = err instanceof Error ? err.message : String(err);
  return new StdioError(
    `did not start: ${textPrefix(m.redact(message), 200, codeUnits)}${tailOf(m)}`,
  );
}
