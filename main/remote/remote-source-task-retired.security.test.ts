import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { signedInSource } from '../../test-support/signed-in-source.js';
import { TaskUpstream } from '../../test-support/task-upstream.js';

/**
 * Issue 10 "Must hold", for a task-augmented call (tasks/upstream-task.ts): it may answer up to
 * the task's ttl after it was sent, longer than a plain call's callMaxMs. An OAuth token renewed
 * while the task runs stays redacted from its result for as long as that result may come.
 */
const cleanup = cleanupAfterEach();
const fresh = (p: string) => `${p}_${randomBytes(24).toString('base64url')}`;

describe('a renewed token and a task that outlives a plain call', () => {
  it('the old token is still redacted from the task result 20 minutes on', async () => {
    const OLD = fresh('at');
    const NEW = fresh('at');
    const up = new TaskUpstream();
    await up.start();
    cleanup.push(() => up.stop());
    const tokens = (t: string) => ({ access_token: t, token_type: 'Bearer', obtained_at: 0 });
    let clock = 1_000_000; // the redactor's clock (RemoteSourceOptions.now), driven here
    const { s, store } = await signedInSource(up.url, OLD, cleanup, {
      obtainedAt: 0,
      now: () => clock,
    });
    const ctx = () => ({ agent: 'a', signal: new AbortController().signal });
    const call = s.call('report', { topic: 'auth' }, ctx());
    await up.until(() => up.created.length === 1);
    const taskId = up.created[0]!.taskId;
    // The token is renewed while the task runs; a plain call learns the new one (OLD retires).
    await store.update((r) => r && { ...r, tokens: tokens(NEW) });
    expect(JSON.stringify(await s.call('plain', {}, ctx()))).not.toContain('isError":true');
    clock += 20 * 60_000; // past callMaxMs (10 min), well within the task's ttl (60 min)
    await up.finish(taskId, `authorized by Bearer ${OLD}`); // as a careless server would
    const r = JSON.stringify(await call);
    expect(r).toContain('authorized by Bearer [redacted]');
    expect(r.includes(OLD), `the task result hands the agent the old token: ${r}`).toBe(false);
  });
});
