import type { Client } from '@modelcontextprotocol/client';

/**
 * `client.connect` bounded by `ms`, for both kinds of upstream (upstream.ts for a URL,
 * stdio/connect-stdio.ts for a local process). The SDK's own `timeout` bounds each request of
 * the handshake but not every step (the legacy SSE GET waits for its endpoint event; a process
 * may print nothing), so the abort also ends the wait itself, failing with `timedOut()`'s error.
 * The caller closes what it opened when this throws.
 */
export async function connectWithin(
  client: Client,
  transport: Parameters<Client['connect']>[0],
  ms: number,
  timedOut: () => Error,
): Promise<void> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(timedOut()), ms);
  try {
    await Promise.race([
      client.connect(transport, { timeout: ms, signal: abort.signal }),
      new Promise<never>((_, reject) =>
        abort.signal.addEventListener('abort', () => reject(abort.signal.reason as Error), {
          once: true,
        }),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
