import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '../tools/types.js';

/**
 * The tasks an agent created with task-augmented tools/call (MCP 2025-11-25,
 * basic/utilities/tasks). Airlock is the receiver: the whole call (policy,
 * taint check, grant or approval, the source's own run, which goes task-augmented
 * upstream where the tool declares it) runs under an Airlock task id, bound to the
 * agent that created it; another agent gets "task not found" (spec, "Task
 * Isolation": tasks are bound to the authorization context that created them).
 */

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The spec's `Task`. */
export interface TaskView {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
}

/**
 * What runs the call: its signal ends on tasks/cancel; `status` updates the task's message;
 * `taskId` is the task's own, for what is sent on its behalf (mcp-handlers/related-task.ts).
 */
export type TaskRun = (
  signal: AbortSignal,
  status: (message: string) => void,
  taskId: string,
) => Promise<CallToolResult>;

interface Entry {
  agent: string;
  view: TaskView;
  abort: AbortController;
  /** Settles when the task reaches a terminal status (cancelled too, whatever the run does). */
  ended: Promise<void>;
  end: () => void;
  result?: CallToolResult;
  error?: unknown;
  notify: (task: TaskView) => void;
  expiry?: ReturnType<typeof setTimeout>;
}

export class TaskNotFound extends Error {
  override name = 'TaskNotFound';
}

export class TaskTerminal extends Error {
  override name = 'TaskTerminal';
}

export interface TaskBoardOptions {
  now?: () => number;
  /** Longest time a finished task's result is kept (and the default when the agent names none). */
  maxTtlMs?: number;
  /**
   * Running tasks one agent may have at once before a new one is refused; finished ones beyond
   * this many are forgotten oldest first, before their ttl.
   */
  maxPerAgent?: number;
}

const TERMINAL = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

export class TaskBoard {
  private readonly tasks = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly maxTtlMs: number;
  private readonly maxPerAgent: number;

  constructor(o: TaskBoardOptions = {}) {
    this.now = o.now ?? Date.now;
    this.maxTtlMs = o.maxTtlMs ?? 60 * 60_000;
    this.maxPerAgent = o.maxPerAgent ?? 1000;
  }

  /** Starts `run` as a task of `agent`; `notify` carries notifications/tasks/status to it. */
  create(
    agent: string,
    ttl: number | undefined,
    notify: (task: TaskView) => void,
    run: TaskRun,
  ): TaskView {
    const mine = this.ofAgent(agent);
    if (mine.filter((e) => !TERMINAL.has(e.view.status)).length >= this.maxPerAgent)
      throw new Error(
        `${this.maxPerAgent} tasks are still running for this agent; wait for or cancel some first.`,
      );
    const finished = mine.filter((e) => TERMINAL.has(e.view.status));
    for (const old of finished.slice(0, Math.max(0, finished.length - this.maxPerAgent + 1)))
      this.forget(old);
    const at = new Date(this.now()).toISOString();
    const view: TaskView = {
      taskId: randomUUID(),
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      ttl: Math.min(ttl ?? this.maxTtlMs, this.maxTtlMs),
      pollInterval: 1000,
    };
    const abort = new AbortController();
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const entry: Entry = { agent, view, abort, notify, ended, end };
    this.tasks.set(view.taskId, entry);
    void run(abort.signal, (message) => this.update(entry, 'working', message), view.taskId).then(
      (result) => {
        entry.result = result;
        this.update(entry, 'completed');
      },
      (err: unknown) => {
        entry.error = err;
        this.update(entry, 'failed', err instanceof Error ? err.message : String(err));
      },
    );
    return { ...view };
  }

  get(agent: string, taskId: string): TaskView {
    return { ...this.entry(agent, taskId).view };
  }

  /** Waits for the task to end (spec: tasks/result blocks until terminal), then its result. */
  async result(agent: string, taskId: string): Promise<CallToolResult> {
    const entry = this.entry(agent, taskId);
    await entry.ended;
    if (entry.view.status === 'cancelled') throw new TaskTerminal('The task was cancelled.');
    if (entry.error !== undefined) throw entry.error;
    return entry.result!;
  }

  list(agent: string): TaskView[] {
    return this.ofAgent(agent).map((e) => ({ ...e.view }));
  }

  /** tasks/cancel: a terminal task cannot be cancelled (spec: -32602). */
  cancel(agent: string, taskId: string): TaskView {
    const entry = this.entry(agent, taskId);
    if (TERMINAL.has(entry.view.status))
      throw new TaskTerminal(`Cannot cancel a task that is already ${entry.view.status}.`);
    this.update(entry, 'cancelled', 'Cancelled by the agent.');
    entry.abort.abort(new Error('task cancelled'));
    return { ...entry.view };
  }

  /** Cancels an agent's running tasks and forgets all of them (the agent was revoked). */
  closeAgent(agent: string): void {
    for (const e of this.ofAgent(agent)) {
      if (!TERMINAL.has(e.view.status)) this.update(e, 'cancelled', 'The agent was removed.');
      e.abort.abort(new Error('agent removed'));
      this.forget(e);
    }
  }

  /** Ends every task (gateway shutdown). */
  close(): void {
    for (const e of this.tasks.values()) {
      if (e.expiry) clearTimeout(e.expiry);
      e.abort.abort(new Error('Airlock stopped'));
    }
    this.tasks.clear();
  }

  private forget(e: Entry): void {
    if (e.expiry) clearTimeout(e.expiry);
    this.tasks.delete(e.view.taskId);
  }

  private ofAgent(agent: string): Entry[] {
    return [...this.tasks.values()].filter((e) => e.agent === agent);
  }

  private entry(agent: string, taskId: string): Entry {
    const e = this.tasks.get(taskId);
    // The same answer for another agent's task and a missing one: nothing learned about others.
    if (!e || e.agent !== agent) throw new TaskNotFound('Task not found');
    return e;
  }

  private update(entry: Entry, status: TaskStatus, message?: string): void {
    // A terminal status is final (spec, "Task Status Lifecycle").
    if (TERMINAL.has(entry.view.status)) return;
    entry.view.status = status;
    if (message !== undefined) entry.view.statusMessage = message;
    else delete entry.view.statusMessage;
    entry.view.lastUpdatedAt = new Date(this.now()).toISOString();
    try {
      entry.notify({ ...entry.view });
    } catch {
      // The agent's session is gone; it can still ask with tasks/get.
    }
    if (TERMINAL.has(status)) {
      entry.end();
      // Kept for its ttl after it ends, then forgotten (spec: receivers may delete after ttl).
      entry.expiry = setTimeout(() => this.tasks.delete(entry.view.taskId), entry.view.ttl ?? 0);
      entry.expiry.unref?.();
    }
  }
}
