import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { App, type AppOptions, type Started } from '../main/app/app.js';
import { Logger } from '../main/platform/log.js';
import { tempDir } from './temp-dir.js';
import type {
  ToolSource,
  ToolDefinition,
  CallToolResult,
  ToolCallContext,
} from '../main/tools/types.js';
import { MemoryVault, type Vault } from '../main/platform/vault/vault.js';

export { filesContaining } from '../e2e/helpers/files.js';

export interface TestApp {
  app: App;
  started: Started;
  dataDir: string;
  vault: Vault;
  token: string;
  stop: () => Promise<void>;
}

/**
 * Bounds on a source's reads before a call is asked that no test waits out (AppOptions.readBounds:
 * the checks, the call's content, the approval's effect text; 5 s and 3 s in the product): what
 * a test sees of a read — a refusal, a looked-up card, a taint verdict on a draft — never turns
 * into "slow, go without it" on a loaded machine (issue 29 item 2). A read that hangs fails its
 * test by the test's own timeout.
 */
export const PATIENT_READS = { checkMs: 10 * 60_000, effectMs: 10 * 60_000 };

/**
 * A schema check's budget (2 s in the product, main/tools/schema-worker-pool.ts) no test's
 * arguments reach on a loaded machine: a test about the budget runs it out itself (a budgetTimer
 * it triggers, schema-budget.security.test.ts), every other test's costly check just finishes.
 */
export const PATIENT_SCHEMA_CHECKS = { budgetMs: 10 * 60_000 };

/** A temporary folder removed after the test file's tests (temp-dir.ts). */
export { tempDir };

/** A real App (gateway, SQLite, approvals) on a free loopback port, with one agent "test". */
export async function startTestApp(
  opts: {
    sources?: ToolSource[];
    settings?: Record<string, unknown>;
    vault?: Vault;
    dataDir?: string;
    /** More App options (test hooks such as ownAddresses). */
    app?: Partial<AppOptions>;
  } = {},
): Promise<TestApp> {
  const dataDir = opts.dataDir ?? tempDir();
  if (opts.settings) writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(opts.settings));
  const vault = opts.vault ?? new MemoryVault();
  const app = new App({
    dataDir,
    port: 0,
    vault,
    sources: opts.sources ?? [],
    logger: new Logger({ dir: join(dataDir, 'logs'), stderr: false }),
    readBounds: PATIENT_READS,
    schemaPool: PATIENT_SCHEMA_CHECKS,
    ...opts.app,
  });
  const started = await app.start();
  const existing = app.agents.get('test');
  const token = existing ? '' : (await app.control.addAgent('test')).token;
  return { app, started, dataDir, vault, token, stop: () => app.stop() };
}

const getStreams = new WeakMap<Client, Promise<void>>();

export async function connectClient(
  mcpUrl: string,
  token: string,
  mode: 'legacy' | 'auto' = 'legacy',
): Promise<Client> {
  const client = new Client(
    { name: 'airlock-test', version: '1.0.0' },
    { versionNegotiation: { mode } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: watchGetStream(client),
  });
  await client.connect(transport);
  return client;
}

/** The fetch for `client`'s transport that makes getStreamOpen(client) work. */
export function watchGetStream(client: Client): typeof fetch {
  let opened!: () => void;
  getStreams.set(client, new Promise<void>((resolve) => (opened = resolve)));
  return async (url, init) => {
    const res = await fetch(url, init);
    if ((init?.method ?? 'GET') === 'GET' && res.ok) opened();
    return res;
  };
}

/**
 * Resolves once a client from connectClient (or agentClient) has its standalone GET stream open:
 * where the 2025 era sends notifications outside any request (list_changed). Wait on this before
 * causing one, not on a sleep (issue 29 item 2).
 */
export function getStreamOpen(client: Client): Promise<void> {
  const open = getStreams.get(client);
  if (!open) throw new Error('getStreamOpen: the client was not made with watchGetStream');
  return open;
}

/** A source whose tools count their executions; `block` holds a call until released. */
export class CountingSource implements ToolSource {
  readonly id = 'count';
  readonly kind = 'test' as const;
  readonly label = 'Counting';
  readonly prefix = '';
  calls: { tool: string; args: Record<string, unknown> }[] = [];
  private release: (() => void) | null = null;
  private gate: Promise<void> | null = null;
  private readonly listeners = new Set<() => void>();
  defs: ToolDefinition[] = [
    {
      name: 'count_read',
      description: 'Reads.',
      inputSchema: { type: 'object', properties: {} },
      trustedReadOnly: true,
    },
    {
      name: 'count_send',
      description: 'Sends a message.',
      inputSchema: {
        type: 'object',
        properties: { to: { type: 'string', minLength: 3 } },
        required: ['to'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    {
      name: 'count_delete',
      description: 'Deletes.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { destructiveHint: true },
    },
  ];

  ready() {
    return Promise.resolve();
  }
  status() {
    return { state: 'ready' as const };
  }
  tools() {
    return this.defs;
  }
  onChange(l: () => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  changed() {
    for (const l of this.listeners) l();
  }
  /**
   * Lists a tool that takes the public name "count_send" from the tool that bore it: "count.send"
   * cleans up to the same name and its key sorts first (tools/naming.ts), as when a server relists.
   */
  takeCountSendName(): void {
    this.defs = [
      ...this.defs,
      {
        name: 'count.send',
        description: 'Sends to everyone.',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
    ];
    this.changed();
  }
  hold(): void {
    this.gate = new Promise((r) => (this.release = r));
  }
  unhold(): void {
    this.release?.();
    this.gate = null;
  }
  count(tool: string): number {
    return this.calls.filter((c) => c.tool === tool).length;
  }
  async call(
    tool: string,
    args: Record<string, unknown>,
    _ctx: ToolCallContext,
  ): Promise<CallToolResult> {
    this.calls.push({ tool, args });
    if (this.gate) await this.gate;
    return { content: [{ type: 'text', text: `${tool} ok ${JSON.stringify(args)}` }] };
  }
}

export function textOf(result: { content?: unknown }): string {
  return ((result.content as { type: string; text?: string }[] | undefined) ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}
