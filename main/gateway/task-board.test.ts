import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '../tools/types.js';
import { TaskBoard, TaskNotFound, TaskTerminal, type TaskView } from './task-board.js';

/**
 * The board's promise (tasks are bound to the agent that made them; a terminal status is final;
 * every change is told to the creator in order) checked over generated sequences of creates,
 * gets, lists, cancels and finishes by several agents, against a plain model.
 */
const AGENTS = ['alice', 'bob', 'carol'] as const;
type Op =
  | { kind: 'create'; agent: number }
  | { kind: 'get' | 'cancel' | 'result'; agent: number; task: number }
  | { kind: 'list'; agent: number }
  | { kind: 'finish'; task: number; fail: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), agent: fc.nat(2) }),
  fc.record({
    kind: fc.constantFrom('get' as const, 'cancel' as const, 'result' as const),
    agent: fc.nat(2),
    task: fc.nat(9),
  }),
  fc.record({ kind: fc.constant('list' as const), agent: fc.nat(2) }),
  fc.record({ kind: fc.constant('finish' as const), task: fc.nat(9), fail: fc.boolean() }),
);

describe('TaskBoard', () => {
  it('binds tasks to their agent and keeps terminal states final, over generated sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        const board = new TaskBoard({ now: () => 0 });
        const made: { id: string; owner: string; end: (fail: boolean) => void }[] = [];
        const heard = new Map<string, TaskView[]>();
        const terminal = (s: string) => ['completed', 'failed', 'cancelled'].includes(s);
        for (const o of ops) {
          if (o.kind === 'create') {
            const owner = AGENTS[o.agent]!;
            let end!: (fail: boolean) => void;
            const view = board.create(
              owner,
              undefined,
              (t) => heard.set(t.taskId, [...(heard.get(t.taskId) ?? []), t]),
              () =>
                new Promise<CallToolResult>((resolve, reject) => {
                  end = (fail) =>
                    fail
                      ? reject(new Error('boom'))
                      : resolve({ content: [{ type: 'text', text: 'ok' }] });
                }),
            );
            made.push({ id: view.taskId, owner, end });
            continue;
          }
          if (o.kind === 'list') {
            const agent = AGENTS[o.agent]!;
            expect(
              board
                .list(agent)
                .map((t) => t.taskId)
                .sort(),
            ).toEqual(
              made
                .filter((m) => m.owner === agent)
                .map((m) => m.id)
                .sort(),
            );
            continue;
          }
          const m = made[o.task];
          if (!m) continue;
          if (o.kind === 'finish') {
            m.end(o.fail);
            // Waits for the board to take the outcome in (a cancelled task keeps its status).
            await board.result(m.owner, m.id).catch(() => {});
            continue;
          }
          const agent = AGENTS[o.agent]!;
          const act = () =>
            o.kind === 'get'
              ? board.get(agent, m.id)
              : o.kind === 'cancel'
                ? board.cancel(agent, m.id)
                : null;
          if (agent !== m.owner) {
            if (o.kind === 'result')
              await expect(board.result(agent, m.id)).rejects.toBeInstanceOf(TaskNotFound);
            else expect(act).toThrow(TaskNotFound);
            continue;
          }
          if (o.kind === 'cancel') {
            const before = board.get(agent, m.id).status;
            if (terminal(before)) expect(act).toThrow(TaskTerminal);
            else expect(board.cancel(agent, m.id).status).toBe('cancelled');
          }
        }
        // What each creator heard: in order, and nothing after the first terminal status.
        for (const [id, seen] of heard) {
          const first = seen.findIndex((t) => terminal(t.status));
          expect(first === -1 || first === seen.length - 1).toBe(true);
          expect(board.get(made.find((m) => m.id === id)!.owner, id).status).toBe(
            seen.at(-1)!.status,
          );
        }
        board.close();
      }),
      { numRuns: 200 },
    );
  });

  it('answers tasks/result once the task ends: its result, its error, or that it was cancelled', async () => {
    const board = new TaskBoard({ now: () => 0 });
    const ok = board.create(
      'a',
      1000,
      () => {},
      async () => ({ content: [] }),
    );
    expect(await board.result('a', ok.taskId)).toEqual({ content: [] });
    const bad = board.create(
      'a',
      1000,
      () => {},
      () => Promise.reject(new Error('no such thing')),
    );
    await expect(board.result('a', bad.taskId)).rejects.toThrow('no such thing');
    expect(board.get('a', bad.taskId)).toMatchObject({
      status: 'failed',
      statusMessage: 'no such thing',
    });
    const slow = board.create(
      'a',
      5,
      () => {},
      (signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    const waiting = board.result('a', slow.taskId);
    board.cancel('a', slow.taskId);
    await expect(waiting).rejects.toBeInstanceOf(TaskTerminal);
    // The ttl asked for is kept, capped at the board's longest.
    expect(slow.ttl).toBe(5);
    expect(
      board.create(
        'a',
        10 ** 12,
        () => {},
        async () => ({ content: [] }),
      ).ttl,
    ).toBe(60 * 60_000);
    board.close();
  });

  it('refuses a new task only while too many run; forgets the oldest finished ones instead', async () => {
    const board = new TaskBoard({ now: () => 0, maxPerAgent: 2 });
    const never = () => new Promise<CallToolResult>(() => {});
    const done = async (): Promise<CallToolResult> => ({ content: [] });
    const a = board.create('a', undefined, () => {}, never);
    board.create('a', undefined, () => {}, never);
    expect(() => board.create('a', undefined, () => {}, never)).toThrow(
      /2 tasks are still running/,
    );
    // Another agent has its own allowance.
    board.create('b', undefined, () => {}, never);
    board.cancel('a', a.taskId);
    const finished = [];
    for (let i = 0; i < 4; i++) {
      const t = board.create('a', undefined, () => {}, done);
      await board.result('a', t.taskId);
      finished.push(t.taskId);
    }
    expect(board.list('a').filter((t) => t.status !== 'working').length).toBeLessThanOrEqual(2);
    expect(board.list('a').map((t) => t.taskId)).toContain(finished.at(-1));
    expect(() => board.get('a', a.taskId)).toThrow(TaskNotFound);
    board.close();
  });

  it("a revoked agent's running tasks are cancelled and all of its tasks forgotten", () => {
    const board = new TaskBoard({ now: () => 0 });
    const told: string[] = [];
    let signal!: AbortSignal;
    const t = board.create(
      'a',
      undefined,
      (v) => told.push(v.status),
      (s) => {
        signal = s;
        return new Promise<CallToolResult>(() => {});
      },
    );
    const other = board.create(
      'b',
      undefined,
      () => {},
      () => new Promise<CallToolResult>(() => {}),
    );
    board.closeAgent('a');
    expect(signal.aborted).toBe(true);
    expect(told).toEqual(['cancelled']);
    expect(() => board.get('a', t.taskId)).toThrow(TaskNotFound);
    expect(board.get('b', other.taskId).status).toBe('working');
    board.close();
  });
});
