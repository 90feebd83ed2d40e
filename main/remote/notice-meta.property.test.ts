import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { wireFeatures } from './upstream/upstream-features.js';
import { serverProgress } from './server-progress.js';
import type { SourceNotice } from '../tools/features.js';
import { noticeMeta, withoutUpstreamIdentity } from '../tools/untrusted.js';

/**
 * The server's `_meta` on a relayed notification (log line, resource update, progress) is filtered
 * by the result's filter (untrusted.ts ownMeta, through noticeMeta): over generated key sets —
 * keys of the server's own, Airlock's namespaces in any case, the protocol's connection keys,
 * prototype names — every allowed key passes with its value unchanged (the same value, nested
 * as it came), and no reserved key ever does. Checked on the code that acts: the upstream
 * client's notification handlers (wireFeatures) and the progress callback (serverProgress).
 */
const RESERVED_EXACT = [
  'io.modelcontextprotocol/serverInfo',
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/cache',
  'io.modelcontextprotocol/subscriptionId',
];

/** Whether the filter must drop this key: Airlock's namespaces, connection keys, `__proto__`. */
function reserved(key: string): boolean {
  const k = key.toLowerCase();
  return (
    key === '__proto__' ||
    RESERVED_EXACT.includes(key) ||
    k.startsWith('airlock/') ||
    k.startsWith('dev.airlock/')
  );
}

/** A letter case at random, per character: "Dev.AIRlock/x" is Airlock's too. */
const anyCase = (s: string) =>
  fc
    .array(fc.boolean(), { minLength: s.length, maxLength: s.length })
    .map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));

const key = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(...RESERVED_EXACT),
  fc.tuple(anyCase('airlock/'), fc.string({ maxLength: 6 })).map(([p, s]) => p + s),
  fc.tuple(anyCase('dev.airlock/'), fc.string({ maxLength: 6 })).map(([p, s]) => p + s),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'example.com/trace',
    'io.modelcontextprotocol/related-task',
    'airlock',
    'dev.airlocks/x',
  ),
);

/** An object with these own keys, made as JSON.parse makes one (`__proto__` an own key). */
const meta = fc
  .uniqueArray(fc.tuple(key, fc.jsonValue({ maxDepth: 3 })), { selector: ([k]) => k, maxLength: 8 })
  .map((entries) => {
    const o: Record<string, unknown> = {};
    for (const [k, v] of entries)
      Object.defineProperty(o, k, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return o;
  });

/** What must reach the agent: the allowed keys, their values as they came. */
function expected(m: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(m).filter(([k]) => !reserved(k));
  if (!entries.length) return undefined;
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries)
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

function holds(got: Record<string, unknown> | undefined, sent: Record<string, unknown>): void {
  const want = expected(sent);
  if (!want) {
    expect(got).toBeUndefined();
    return;
  }
  expect(got).toBeDefined();
  expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
  expect(Object.keys(got!).sort()).toEqual(Object.keys(want).sort());
  // The same values, not copies: nested as the server sent them.
  for (const k of Object.keys(want)) expect(got![k]).toBe(want[k]);
  for (const k of Object.keys(got!)) expect(reserved(k)).toBe(false);
}

/** The handlers wireFeatures registers on an upstream client, and the notices they make. */
function wired(): {
  handlers: Map<string, (n: unknown) => void>;
  notices: SourceNotice[];
} {
  const handlers = new Map<string, (n: unknown) => void>();
  const notices: SourceNotice[] = [];
  const client = {
    setNotificationHandler: (method: string, h: (n: unknown) => void) =>
      void handlers.set(method, h),
    setRequestHandler: () => {},
  } as unknown as Client;
  wireFeatures(client, {
    onNotice: (n) => void notices.push(n),
    // A URL step's completion, as the agent gets it (url-completions.ts, relay.ts completeOn).
    onElicitationComplete: (elicitationId, _meta) =>
      void notices.push({
        kind: 'resource-updated',
        uri: `elicitation:${elicitationId}`,
        ...(_meta ? { _meta } : {}),
      }),
  });
  return { handlers, notices };
}

describe("the filter on a relayed notification's _meta", () => {
  it('is the result filter', () => {
    fc.assert(
      fc.property(meta, (m) => {
        expect(noticeMeta(m)).toEqual(withoutUpstreamIdentity({ _meta: m })._meta);
        holds(noticeMeta(m), m);
      }),
    );
  });

  it('log lines, resource updates and URL-step completions from an upstream: allowed keys pass unchanged, reserved never', () => {
    const { handlers, notices } = wired();
    fc.assert(
      fc.property(meta, (m) => {
        notices.length = 0;
        handlers.get('notifications/message')!({
          method: 'notifications/message',
          params: { level: 'info', data: { x: 1 }, _meta: m },
        });
        handlers.get('notifications/resources/updated')!({
          method: 'notifications/resources/updated',
          params: { uri: 'mem://x', _meta: m },
        });
        handlers.get('notifications/elicitation/complete')!({
          method: 'notifications/elicitation/complete',
          params: { elicitationId: 'e', _meta: m },
        });
        expect(notices).toHaveLength(3);
        for (const n of notices) holds((n as { _meta?: Record<string, unknown> })._meta, m);
      }),
    );
  });

  it('progress: allowed keys pass unchanged, reserved never', () => {
    fc.assert(
      fc.property(meta, (m) => {
        const got: (Record<string, unknown> | undefined)[] = [];
        const on = serverProgress(
          'svc',
          { text: (t) => t, value: (x) => x },
          (_p, _t, _m, meta) => void got.push(meta),
        );
        on({ progress: 1, _meta: m });
        expect(got).toHaveLength(1);
        holds(got[0], m);
      }),
    );
  });

  it('a `_meta` that is no object reaches no agent', () => {
    for (const m of [null, 'x', 3, [1, 2], true]) expect(noticeMeta(m)).toBeUndefined();
  });
});
