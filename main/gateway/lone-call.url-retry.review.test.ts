import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoneArm, settled } from '../../test-support/lone-sessions.js';
import { waitingResult } from '../approvals/messages.js';
import type { ApprovalRow } from '../store/approval-store.js';
import { LoneCallServer } from './mcp-handlers/lone-call.js';

/**
 * Review of the 2025 lone path for a client that declared URL elicitation (lone-call.ts `urlCall`,
 * approval-url.ts): pins what lone-call.property.test.ts cannot see because both of its arms run
 * the same approval-url.ts — the agent's answer to the approval's URL elicitation makes the call
 * run again WITHOUT noWait (it then waits the bounded time, approval-url.ts), whatever that
 * answer says, and the session closed, revoked or left unanswered while the agent is asked ends
 * the call as on the SDK path: nothing sent after, nothing left busy.
 */

const ROW = { id: 'req-1', expiresAt: 0 } as ApprovalRow;
const call = {
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 't', arguments: { n: 1 } },
};
const URL_CAPS = { elicitation: { url: {} } };
/** The SDK's legacy shim's default leg timeout (DEFAULT_LEGACY_SHIM_ROUND_TIMEOUT_MS). */
const SHIM_ROUND_MS = 600_000;

type After = 'accept' | 'decline' | 'cancel' | 'hangupAccept' | 'close' | 'revoke' | 'unanswered';

const arms: LoneArm[] = [];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(async () => {
  for (const a of arms.splice(0)) await a.close();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** One call that needs approval, the agent asked, then `after`; what the agent and pipeline saw. */
async function play(lone: boolean, after: After) {
  const runLone = vi.spyOn(LoneCallServer.prototype, 'runLone');
  const a = new LoneArm(lone);
  arms.push(a);
  await a.open(URL_CAPS);
  runLone.mockClear();
  const res = a.post(call);
  await settled();
  const first = a.calls.running[0]!;
  const mark = a.seen.length;
  first.settle(() => waitingResult(ROW));
  await settled();
  const asked = a.seen
    .slice(mark)
    .map((x) => ('message' in x ? (x.message as Record<string, unknown>) : undefined))
    .find((m) => m?.['method'] === 'elicitation/create');
  if (after === 'close') a.delete();
  else if (after === 'revoke') {
    a.endpoint.closeSessionsOf('a', 10);
    vi.advanceTimersByTime(10);
  } else if (after === 'unanswered') vi.advanceTimersByTime(SHIM_ROUND_MS);
  else if (asked) {
    // The agent hangs up on the call's POST, then answers the elicitation on another one.
    if (after === 'hangupAccept') res.destroy();
    const action = after === 'hangupAccept' ? 'accept' : after;
    a.post({
      jsonrpc: '2.0',
      id: asked['id'],
      result: { action, ...(action === 'accept' && { content: {} }) },
    });
  }
  await settled();
  // The retry (if any) ends with the user's decision.
  for (const again of a.calls.running.slice(1))
    again.settle(() => ({ content: [{ type: 'text', text: 'sent' }] }));
  await settled();
  const out = JSON.parse(
    JSON.stringify({
      seen: a.seen,
      errors: a.errors,
      pipeline: a.calls.log,
      noWait: a.calls.running.map((c) => c.opts.noWait ?? false),
      aborted: a.calls.running.map((c) => c.opts.signal?.aborted ?? false),
      busy: a.busy() ?? 'gone',
      asked: asked?.['params'],
    }).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID'),
  ) as {
    seen: unknown[];
    noWait: boolean[];
    aborted: boolean[];
    busy: boolean | 'gone';
    asked: unknown;
  };
  return { lone: runLone.mock.calls.length, ...out };
}

describe('a 2025 URL elicitation client: the approval asked on the lone path', () => {
  for (const after of ['accept', 'decline', 'cancel', 'hangupAccept'] as const)
    it(`answered (${after}): the call runs again once, told to wait this time, as on the SDK path`, async () => {
      const sdk = await play(false, after);
      const lone = await play(true, after);
      expect(lone.lone).toBe(1);
      expect(sdk.lone).toBe(0);
      expect(lone.asked).toMatchObject({
        mode: 'url',
        url: 'https://airlock.test/#/approve/req-1',
        elicitationId: 'UUID',
      });
      // The first try asked not to wait; the retry waits the bounded time (approval-url.ts).
      expect(lone.noWait).toEqual([true, false]);
      expect(lone.busy).toBe(false);
      // Answered where the agent still listens; after a hang-up nowhere, and the id let go.
      if (after === 'hangupAccept') expect(JSON.stringify(lone.seen)).not.toContain('"sent"');
      else expect(JSON.stringify(lone.seen)).toContain('"text":"sent"');
      const { lone: _l, ...rest } = lone;
      const { lone: _s, ...restSdk } = sdk;
      expect(rest).toEqual(restSdk);
    });

  for (const after of ['close', 'revoke', 'unanswered'] as const)
    it(`${after} while asked: ends as on the SDK path, nothing left busy`, async () => {
      const sdk = await play(false, after);
      const lone = await play(true, after);
      expect(lone.lone).toBe(1);
      // The call is not run again without the agent's answer.
      expect(lone.noWait).toEqual([true]);
      expect(lone.busy === false || lone.busy === 'gone').toBe(true);
      const answers = JSON.stringify(lone.seen).match(/"id":7[,}]/g) ?? [];
      if (after === 'unanswered') {
        // The shim's leg timed out: its tools/call failure result, once; the call not run again.
        expect(JSON.stringify(lone.seen)).toContain('Fulfilling input required by');
        expect(answers).toHaveLength(1);
      } else expect(answers).toHaveLength(0);
      // The call's own signal aborted where its session went (close, revoke).
      expect(lone.aborted).toEqual([after !== 'unanswered']);
      const { lone: _l, ...rest } = lone;
      const { lone: _s, ...restSdk } = sdk;
      expect(rest).toEqual(restSdk);
    });
});
