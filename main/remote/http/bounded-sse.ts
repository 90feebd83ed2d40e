import { SSEClientTransport } from '@modelcontextprotocol/client';
import { answerIdOf, checkUpstream, UpstreamValuesError } from '../upstream/json-values.js';
import { malformedAnswerError } from './lean-transport.js';

/** What the SDK's SSEClientTransport sets up in `_startOrAuth` (SDK 2.4), read here. */
interface SseInternals {
  _startOrAuth(): Promise<void>;
  _eventSource?: { onmessage: ((event: MessageEvent) => void) | null };
}

/**
 * The legacy HTTP+SSE transport with every message bounded as the other legs bound theirs
 * (`parseUpstream`, upstream/json-values.ts): the SDK's own handler does `JSON.parse` and a zod
 * parse with no bound, so a server's answer 10,000 deep reached the approval store and the
 * agent's answer whole. A message over the bounds never reaches the SDK's handler: an answer to
 * one of our requests becomes an error answer naming why (its call fails at once, saying it ran,
 * as over Streamable HTTP and stdio), anything else is reported and skipped, as the SDK does with
 * a message it cannot parse. The handler is wrapped each time the SDK opens its event source (a
 * re-authorisation opens a new one); it is set synchronously inside `_startOrAuth`.
 */
export class BoundedSSEClientTransport extends SSEClientTransport {
  constructor(...args: ConstructorParameters<typeof SSEClientTransport>) {
    super(...args);
    const self = this as unknown as SseInternals;
    const startOrAuth = self._startOrAuth.bind(this);
    self._startOrAuth = () => {
      const started = startOrAuth();
      const source = self._eventSource;
      const sdk = source?.onmessage;
      if (source && sdk) source.onmessage = (event) => this.bounded(event, sdk);
      return started;
    };
  }

  private bounded(event: MessageEvent, sdk: (event: MessageEvent) => void): void {
    const data: unknown = event.data;
    try {
      if (typeof data === 'string') checkUpstream(data);
    } catch (err) {
      if (!(err instanceof UpstreamValuesError)) throw err;
      const id = answerIdOf(data as string);
      if (id === undefined) this.onerror?.(err);
      else this.onmessage?.(malformedAnswerError(id, err.message));
      return;
    }
    sdk(event);
  }
}
