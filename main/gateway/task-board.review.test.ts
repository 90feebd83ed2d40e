import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskBoard } from './task-board.js';

/**
 * Review (issue 28 item 5): the default caps as shipped (1,000 running tasks per agent) hold per
 * agent, refuse clearly, and free a place as soon as a task ends; a finished task's result stays
 * fetchable for its ttl and is forgotten after (fake clock); task ids are distinct and random.
 */
afterEach(() => vi.useRealTimers());

const never = () => new Promise<never>(() => {});

describe('review: TaskBoard defaults', () => {
  it('1,000 running tasks per agent: the next is refused clearly, another agent is not, one ending frees a place', () => {
    const board = new TaskBoard();
    const ids: string[] = [];
    for (let i = 0; i < 1000; i++) ids.push(board.create('a', undefined, () => {}, never).taskId);
    expect(() => board.create('a', undefined, () => {}, never)).toThrow(
      /1000 tasks are still running/,
    );
    expect(board.create('b', undefined, () => {}, never).status).toBe('working');
    board.cancel('a', ids[0]!);
    expect(board.create('a', undefined, () => {}, never).status).toBe('working');
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    board.close();
  });

  it("a finished task's result is kept for its ttl, then forgotten", async () => {
    vi.useFakeTimers();
    const board = new TaskBoard();
    let finish!: () => void;
    const t = board.create(
      'a',
      5_000,
      () => {},
      () =>
        new Promise(
          (resolve) => (finish = () => resolve({ content: [{ type: 'text', text: 'ok' }] })),
        ),
    );
    finish();
    await expect(board.result('a', t.taskId)).resolves.toMatchObject({ content: [{ text: 'ok' }] });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(board.get('a', t.taskId).status).toBe('completed');
    await vi.advanceTimersByTimeAsync(2);
    expect(() => board.get('a', t.taskId)).toThrow(/Task not found/);
    expect(board.list('a')).toEqual([]);
  });
});
