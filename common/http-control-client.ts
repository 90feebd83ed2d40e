import type { ControlApi, CoreEvent } from './contract/index.js';
import { answerError, controlApiOver } from './control-client.js';

/**
 * ControlApi over the headless HTTP transport. Used by the React app when
 * it runs in a browser and by the CLI when a server is already running.
 * Plain `fetch`, no Node imports: it runs in both.
 */
export function httpControlClient(
  baseUrl: string,
  token: string,
  fetchImpl: typeof fetch = fetch,
): ControlApi {
  return controlApiOver(async (method, params) => {
    const res = await fetchImpl(`${baseUrl}/api/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ method, params }),
    });
    const body = (await res.json().catch(() => ({}))) as {
      result?: unknown;
      error?: string;
      message?: string;
    };
    if (!res.ok) throw answerError(body, `HTTP ${res.status}`);
    return body.result;
  });
}

/**
 * Follows `/api/events` (server-sent events) with fetch, so the token goes
 * in a header rather than the URL. Reconnects with backoff until stopped.
 */
export function subscribeEvents(
  baseUrl: string,
  token: string,
  onEvent: (event: CoreEvent) => void,
  onState: (connected: boolean) => void = () => {},
): () => void {
  const abort = new AbortController();
  let delay = 500;
  const loop = async () => {
    while (!abort.signal.aborted) {
      try {
        const res = await fetch(`${baseUrl}/api/events`, {
          headers: { authorization: `Bearer ${token}` },
          signal: abort.signal,
        });
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        onState(true);
        delay = 500;
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += value;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const data = frame
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (data) onEvent(JSON.parse(data) as CoreEvent);
          }
        }
      } catch {
        if (abort.signal.aborted) return;
      }
      onState(false);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 10_000);
    }
  };
  void loop();
  return () => abort.abort();
}
