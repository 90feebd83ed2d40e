import { PROTOCOL_VERSION_META_KEY, RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import fc from 'fast-check';

/**
 * Generated JSON-RPC requests for the property tests of the two inbound shortcuts
 * (main/gateway/session-route.property.test.ts for 2025 sessions,
 * main/gateway/modern-route.property.test.ts for 2026-07-28): the pieces both draw on, kept in one
 * place so the two eras' tests vary requests the same way.
 */

/** Any JSON scalar, with the numbers JSON and JavaScript disagree on (-0, past 2^53). */
export const scalar = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, 2 ** 53, -0, 1.5, Number.MAX_SAFE_INTEGER + 2),
);

/** A value as the gateway's JSON.parse of the wire body gives it (no undefined, -0 as 0, …). */
export function parsedJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * A client's everyday request: the ids and methods clients send, tool-call params carrying the
 * `_meta` given. With `metaAlways` (2026-07-28, where every request carries its envelope) params
 * and `_meta` are always there; without it (2025) either may be missing.
 */
export function everydayRequest(
  meta: fc.Arbitrary<Record<string, unknown>>,
  { metaAlways }: { metaAlways: boolean },
): fc.Arbitrary<Record<string, unknown>> {
  const params = fc.record(
    { name: fc.string({ maxLength: 4 }), arguments: fc.object({ maxDepth: 1 }), _meta: meta },
    { requiredKeys: metaAlways ? ['_meta'] : [] },
  );
  const model = {
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.maxSafeInteger()),
    method: fc.oneof(
      fc.constantFrom('tools/call', 'tools/list', 'ping', 'resources/read', 'prompts/get'),
      fc.string({ maxLength: 12 }),
    ),
    params,
  };
  const request = metaAlways
    ? fc.record(model)
    : fc.record(model, { requiredKeys: ['jsonrpc', 'id', 'method'] });
  return request.map((m) => parsedJson<Record<string, unknown>>(m));
}

/**
 * The shapes a request's `_meta` takes in the near-miss generators: an object with the keys the
 * SDK reads (progress token, protocol version, related task), each well-formed or not, or no
 * object at all. Given as a list for fc.oneof, so a test may add shapes of its own in front.
 */
export function metaShapes(
  id: fc.Arbitrary<unknown>,
  version: fc.Arbitrary<unknown>,
): fc.Arbitrary<unknown>[] {
  return [
    fc.record(
      {
        progressToken: fc.oneof(id, fc.constant({})),
        [PROTOCOL_VERSION_META_KEY]: version,
        [RELATED_TASK_META_KEY]: fc.oneof(fc.record({ taskId: fc.string() }), scalar),
        other: scalar,
      },
      { requiredKeys: [] },
    ),
    scalar,
    fc.array(scalar, { maxLength: 2 }),
  ];
}

/** A method name: mostly ones the SDK routes (these four, then the test's own), else any scalar. */
export function nearMissMethod(...more: string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom('tools/call', 'tools/list', 'ping', 'initialize', ...more),
    },
    { weight: 1, arbitrary: scalar },
  );
}
