import type { RequestId } from './event-stream.js';

/** A JSON-RPC message as SessionTransport reads it (its shape already checked at the entry). */
export type Message = Record<string, unknown>;

export const isRequest = (m: Message): m is Message & { id: RequestId; method: string } =>
  typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number');

/** A response: an id and a result or an error (the SDK's own Protocol writes them so). */
export const isResponse = (m: Message): boolean =>
  m.method === undefined && m.id !== undefined && ('result' in m || 'error' in m);

/**
 * The first id among a POST's requests that is open in the session already, or repeated in the
 * POST. MCP: a request id is never reused within a session; one still open would make two calls
 * share a stream: the first answer would end it and the second would have nowhere to go.
 */
export function reusedId(
  requests: readonly { id: RequestId }[],
  open: ReadonlyMap<RequestId, unknown>,
): RequestId | undefined {
  // The everyday POST carries one request: no Set for it (issue 34).
  if (requests.length === 1) return open.has(requests[0]!.id) ? requests[0]!.id : undefined;
  const ids = new Set<RequestId>();
  for (const { id } of requests) {
    if (open.has(id) || ids.has(id)) return id;
    ids.add(id);
  }
  return undefined;
}

/**
 * Our requests to a session's client (sampling, elicitation, roots) not yet settled: open from
 * when they go out until the client answers one or we cancel it (`notifications/cancelled`, which
 * the SDK sends on its own timeout too). While any is open the session has something in flight,
 * and the session budget never ends it (budgets.ts, issue 28 item 1).
 */
export class OpenAsks {
  private readonly ids = new Set<RequestId>();

  get size(): number {
    return this.ids.size;
  }

  /** A message we send the client. */
  sent(m: Message): void {
    if (isRequest(m)) this.ids.add(m.id);
    else if (m.method === 'notifications/cancelled') {
      const id = (m.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.ids.delete(id);
    }
  }

  /** Messages the client posted: its answers settle ours. */
  received(messages: readonly Message[]): void {
    for (const m of messages) if (isResponse(m)) this.ids.delete(m.id as RequestId);
  }

  clear(): void {
    this.ids.clear();
  }
}
