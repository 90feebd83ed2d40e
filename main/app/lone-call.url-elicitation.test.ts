import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextRequest } from '../../test-support/core-events.js';
import { CountingSource, startTestApp, textOf, type TestApp } from '../../test-support/harness.js';
import { LoneCallServer } from '../gateway/mcp-handlers/lone-call.js';
import { ModernHotTransport } from '../gateway/modern-hot.js';

/**
 * Real clients that declare URL elicitation (`elicitation: { url: {} }`) on the lone paths
 * (mcp-handlers/lone-call.ts for a 2025 session, modern-lone-call.ts for 2026-07-28): the stock
 * v2 SDK client on both eras and the SDK 1.x client, each against an App with the lone paths
 * (the default) and one without (`loneCalls: false`). An auto tool's call must take the lone
 * path and answer as the SDK path does; a call that needs approval must take it too, get the
 * approval view as a URL elicitation (approval-url.ts), and — the user deciding in Airlock
 * through the control API while the client is asked — its retry must get the decision, the tool
 * run at most once. No clock: the client's elicitation handler waits on the App's own events.
 */

type Kind = 'v2 2025' | 'v2 2026-07-28' | 'v1 2025';
type Side = { t: TestApp; source: CountingSource };
const sides = {} as Record<'lone' | 'sdk', Side>;

beforeAll(async () => {
  for (const [key, loneCalls] of [
    ['lone', true],
    ['sdk', false],
  ] as const) {
    const source = new CountingSource();
    const t = await startTestApp({ sources: [source], app: { loneCalls } });
    sides[key] = { t, source };
  }
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  for (const s of Object.values(sides)) await s.t.stop();
});

/** Lone calls taken, by era (both Apps are in this process). */
const loneRuns = {
  2025: vi.spyOn(LoneCallServer.prototype, 'runLone'),
  2026: vi.spyOn(ModernHotTransport.prototype as unknown as { runLone: () => void }, 'runLone'),
};
const runs = () => loneRuns[2025].mock.calls.length + loneRuns[2026].mock.calls.length;

/**
 * What the user decides in Airlock when the client is shown the approval view; 'abandon': the
 * agent gives up on the call while it is asked (its AbortController), nothing decided.
 */
type Decision = 'allow_once' | 'deny' | 'abandon';

/** A client of `kind` declaring URL elicitation; `asked` records each elicitation it gets. */
async function connect(s: Side, kind: Kind, decide: () => Decision) {
  const asked: string[] = [];
  const abort = new AbortController();
  // The user opens the link and decides there; the client then answers and retries on its own.
  const onElicit = async (params: { mode?: string; url?: string }) => {
    asked.push(`${params.mode}:${params.url}`);
    const decision = decide();
    if (decision === 'abandon') {
      abort.abort('the agent gave up');
      return { action: 'cancel' as const };
    }
    // The request the link names (`#/approve/<id>`), not whichever is pending.
    const id = decodeURIComponent(String(params.url).split('#/approve/')[1] ?? '');
    await s.t.app.control.decide(id, { kind: decision });
    return { action: 'accept' as const };
  };
  const url = new URL(s.t.started.mcpUrl);
  const requestInit = { headers: { Authorization: `Bearer ${s.t.token}` } };
  if (kind === 'v1 2025') {
    const c = new Client1(
      { name: 'v1', version: '1' },
      { capabilities: { elicitation: { url: {} } } },
    );
    c.setRequestHandler(ElicitRequestSchema, (req) => onElicit(req.params as never));
    await c.connect(new Transport1(url, { requestInit }));
    return {
      asked,
      call: (name: string, args: Record<string, unknown>) =>
        c.callTool({ name, arguments: args }, undefined, { signal: abort.signal }),
      close: () => c.close(),
    };
  }
  const c = new Client(
    { name: 'v2', version: '1' },
    {
      capabilities: { elicitation: { url: {} } },
      versionNegotiation: { mode: kind === 'v2 2025' ? 'legacy' : 'auto' },
    },
  );
  c.setRequestHandler('elicitation/create', (req) => onElicit(req.params as never));
  await c.connect(new StreamableHTTPClientTransport(url, { requestInit }));
  return {
    asked,
    call: (name: string, args: Record<string, unknown>) =>
      c.callTool({ name, arguments: args }, { signal: abort.signal }),
    close: () => c.close(),
  };
}

/** One scenario on one App: what the client saw, and how many lone calls it took there. */
async function play(s: Side, kind: Kind, tool: string, decision: Decision = 'allow_once') {
  const client = await connect(s, kind, () => decision);
  try {
    const before = runs();
    const ran = s.source.count(tool);
    const rowsBefore = Math.max(0, ...(await s.t.app.control.listActivity()).map((r) => r.id));
    const requested = tool === 'count_send' ? nextRequest(s.t.app) : undefined;
    // Arguments of their own: an earlier identical call's request (or its denial) is not this one's.
    const args = tool === 'count_send' ? { to: `${kind}-${decision}@example.com` } : {};
    const result = await client.call(tool, args).catch((e: Error) => ({
      isError: 'threw',
      content: [{ type: 'text', text: e.name }],
    }));
    const req = await requested;
    const origin = new URL(s.t.started.mcpUrl).origin;
    return {
      lone: runs() - before,
      seen: {
        // The approval view of this call's own request, named as such (ids and ports differ).
        asked: client.asked.map((a) => a.replace(`${origin}/#/approve/${req?.id}`, 'VIEW')),
        isError: result.isError ?? false,
        // The stored result's time (approvals/messages.ts) is the wall clock's: the two Apps'
        // runs may fall in different seconds (seen flaking in review), so it is named instead.
        text: textOf(result as { content?: unknown })
          .replace(req?.id ?? '\0', 'ID')
          .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'TIME'),
        ran: s.source.count(tool) - ran,
        state: req && (await s.t.app.control.getApproval(req.id)).state,
        // This call's own request still waiting (a test that failed before leaves its own).
        pending: (await s.t.app.control.listPending()).some((p) => p.id === req?.id),
        // What Activity recorded for this call (review: the lone path must record the same rows).
        activity: (await s.t.app.control.listActivity())
          .filter((r) => r.id > rowsBefore)
          .sort((a, b) => a.id - b.id)
          .map((r) => `${r.tool} ${r.decision} ${r.outcome}`),
      },
    };
  } finally {
    await client.close();
  }
}

async function both(kind: Kind, tool: string, decision?: Decision) {
  const sdk = await play(sides.sdk, kind, tool, decision);
  const lone = await play(sides.lone, kind, tool, decision);
  expect(sdk.lone).toBe(0);
  // The first try of each call took the lone path (a retry after the URL elicitation is the
  // SDK's shim re-entering the lone call on 2025; a separate request, the SDK's, on 2026-07-28).
  expect(lone.lone).toBe(1);
  expect(lone.seen).toEqual(sdk.seen);
  return lone.seen;
}

describe('clients that declared URL elicitation take the lone paths', () => {
  for (const kind of ['v2 2025', 'v2 2026-07-28', 'v1 2025'] as const) {
    it(`${kind}: an auto tool's call is lone and answered as on the SDK path`, async () => {
      const seen = await both(kind, 'count_read');
      expect(seen).toMatchObject({ asked: [], isError: false, ran: 1 });
      expect(seen.activity).toEqual(['count_read auto ok']);
    });

    it(`${kind}: a call that needs approval gets the approval view; allowed, its retry runs it once`, async () => {
      const seen = await both(kind, 'count_send', 'allow_once');
      expect(seen).toMatchObject({ asked: ['url:VIEW'], isError: false, ran: 1, state: 'done' });
      // One row: the retry that attached to the request added none of its own.
      expect(seen.activity).toEqual(['count_send approved ok']);
      expect(seen.text).toMatch(/count_send ok/);
      expect(seen.pending).toBe(false);
    });

    it(`${kind}: a call that needs approval, abandoned by the agent while asked: the same request left, nothing ran`, async () => {
      const seen = await both(kind, 'count_send', 'abandon');
      expect(seen).toMatchObject({ asked: ['url:VIEW'], isError: 'threw', ran: 0 });
      expect(seen.activity).toEqual(['count_send waiting pending']);
    });

    it(`${kind}: a call that needs approval, denied: its retry gets the denial, nothing ran`, async () => {
      const seen = await both(kind, 'count_send', 'deny');
      expect(seen).toMatchObject({ asked: ['url:VIEW'], isError: true, ran: 0, state: 'denied' });
      expect(seen.activity).toEqual(['count_send denied not_run']);
      expect(seen.text).toMatch(/denied/);
    });
  }
});
