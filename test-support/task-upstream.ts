import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Task } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** The 1.x SDK's own task store, recording what the tests look for. */
class RecordingStore extends InMemoryTaskStore {
  readonly statuses: { taskId: string; status: Task['status'] }[] = [];
  onChange: (() => void) | undefined;
  override async updateTaskStatus(
    taskId: string,
    status: Task['status'],
    statusMessage?: string,
    sessionId?: string,
  ): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    this.statuses.push({ taskId, status });
    this.onChange?.();
  }
}

/**
 * A task-capable upstream on the 1.x SDK (the one SDK here that serves MCP 2025-11-25 tasks:
 * McpServer's experimental registerToolTask with its InMemoryTaskStore and tasks/* handlers),
 * over Streamable HTTP with sessions. `plain` declares no task support. `report` requires a task and finishes when the test calls
 * finish(); `publish` takes one optionally and finishes at once. `created` lists the tasks made,
 * in order, with the tool and arguments: a call that never reached the server is not in it.
 */
export class TaskUpstream {
  store = new RecordingStore();
  readonly created: { taskId: string; tool: string; args: unknown }[] = [];
  url = '';
  private http: HttpServer | undefined;
  private readonly transports = new Map<string, StreamableHTTPServerTransport>();
  private readonly finishers = new Map<string, (text: string) => Promise<void>>();
  private readonly sayers = new Map<string, (message: string) => Promise<void>>();
  /** Sessions whose client opened its GET stream (where notifications/tasks/status go). */
  private readonly listening = new Set<string>();
  private readonly waiters: (() => void)[] = [];
  /** `report` tasks made but not yet answered (held by holdCreation), by id. */
  readonly held: string[] = [];
  private gate: Promise<void> | undefined;

  /** The next `report` task is made but its CreateTaskResult waits until the returned call. */
  holdCreation(): () => void {
    let release!: () => void;
    this.gate = new Promise<void>((r) => (release = r));
    return release;
  }

  /** Resolves once `check` holds, re-checked whenever the server's tasks change. */
  until(check: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const test = () => (check() ? resolve() : this.waiters.push(test));
      test();
    });
  }

  /** Completes a `report` task with this text. */
  finish(taskId: string, text: string): Promise<void> {
    const f = this.finishers.get(taskId);
    if (!f) throw new Error(`no running report task ${taskId}`);
    return f(text);
  }

  /**
   * A `report` task's status message, sent as notifications/tasks/status once its session's
   * GET stream is open (the 1.x SDK drops a notification with nowhere to go).
   */
  async say(taskId: string, message: string): Promise<void> {
    const say = this.sayers.get(taskId);
    if (!say) throw new Error(`no running report task ${taskId}`);
    return say(message);
  }

  async start(): Promise<void> {
    this.store.onChange = () => this.poke();
    this.http = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => {
        const body: unknown = raw ? JSON.parse(raw) : undefined;
        const sid = req.headers['mcp-session-id'];
        const known = typeof sid === 'string' ? this.transports.get(sid) : undefined;
        if (known && req.method === 'GET') {
          this.listening.add(sid as string);
          this.poke();
        }
        if (known) return void known.handleRequest(req, res, body);
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (id) => void this.transports.set(id, transport),
        });
        void this.server()
          .connect(transport)
          .then(() => transport.handleRequest(req, res, body));
      });
    });
    await new Promise<void>((r) => this.http!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.http.address() as AddressInfo).port}/mcp`;
  }

  /** A restart: every session and task forgotten (a new store), the address kept. */
  async restart(): Promise<void> {
    const old = [...this.transports.values()];
    this.transports.clear();
    this.finishers.clear();
    for (const t of old) await t.close().catch(() => {});
    this.store.cleanup();
    this.store = new RecordingStore();
    this.store.onChange = () => this.poke();
  }

  async stop(): Promise<void> {
    for (const t of this.transports.values()) await t.close().catch(() => {});
    this.store.cleanup();
    this.http?.closeAllConnections();
    await new Promise<void>((r) => (this.http ? this.http.close(() => r()) : r()));
  }

  private poke(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  private server(): McpServer {
    const server = new McpServer(
      { name: 'task-upstream', version: '1.0.0' },
      {
        capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
        taskStore: this.store,
      },
    );
    server.experimental.tasks.registerToolTask(
      'report',
      {
        description: 'Writes a report; takes a while.',
        inputSchema: { topic: z.string() },
        annotations: { readOnlyHint: true },
        execution: { taskSupport: 'required' },
      },
      {
        createTask: async (args, extra) => {
          const task = await extra.taskStore.createTask({ ttl: 60 * 60_000 });
          const gate = this.gate;
          this.gate = undefined;
          if (gate) {
            this.held.push(task.taskId);
            this.poke();
            await gate;
          }
          await extra.taskStore.updateTaskStatus(
            task.taskId,
            'working',
            `writing about ${args.topic}`,
          );
          const session = extra.sessionId;
          this.sayers.set(task.taskId, async (message) => {
            await this.until(() => session !== undefined && this.listening.has(session));
            await extra.taskStore.updateTaskStatus(task.taskId, 'working', message);
          });
          this.finishers.set(task.taskId, (text) =>
            extra.taskStore.storeTaskResult(task.taskId, 'completed', {
              content: [{ type: 'text', text }],
            }),
          );
          this.created.push({ taskId: task.taskId, tool: 'report', args });
          this.poke();
          return { task };
        },
        getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: (_args, extra) => extra.taskStore.getTaskResult(extra.taskId) as never,
      },
    );
    server.experimental.tasks.registerToolTask(
      'publish',
      {
        description: 'Publishes a post.',
        inputSchema: { title: z.string() },
        annotations: { readOnlyHint: false, destructiveHint: false },
        execution: { taskSupport: 'optional' },
      },
      {
        createTask: async (args, extra) => {
          const task = await extra.taskStore.createTask({ ttl: 60 * 60_000 });
          this.created.push({ taskId: task.taskId, tool: 'publish', args });
          await extra.taskStore.storeTaskResult(task.taskId, 'completed', {
            content: [{ type: 'text', text: `published ${args.title}` }],
          });
          this.poke();
          return { task };
        },
        getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: (_args, extra) => extra.taskStore.getTaskResult(extra.taskId) as never,
      },
    );
    server.registerTool(
      'plain',
      { description: 'Answers at once; takes no task.', annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: 'text', text: 'plain answer' }] }),
    );
    return server;
  }
}
