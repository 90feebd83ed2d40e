import { Worker } from 'node:worker_threads';
import { SchemaValidator } from './schema-validator.js';
import type { JsonSchema } from './types.js';

export interface SchemaWorkerPoolOptions {
  /** How long one validation may run before its worker is terminated. */
  budgetMs?: number;
  /** Validations running at once; more wait in line. */
  maxWorkers?: number;
  /**
   * Starts one validation's budget: calls `expire` after `ms`, unless the returned cancel is called
   * first. Default: a real timer. Tests pass a trigger of their own, so the budget running out is
   * an event they cause, not a race with how fast the machine is (issue 29, item 2).
   */
  budgetTimer?: BudgetTimer;
}

export type BudgetTimer = (expire: () => void, ms: number) => () => void;

/** How long one validation may run by default (scripts/bench-schema.mjs measures against it). */
export const DEFAULT_BUDGET_MS = 2000;

const realTimer: BudgetTimer = (expire, ms) => {
  const t = setTimeout(expire, ms);
  return () => clearTimeout(t);
};

/** Below these sizes, with no `$ref`, a validation's cost is small whatever the schema says. */
const INLINE_SCHEMA_CHARS = 16 * 1024;
const INLINE_VALUE_CHARS = 4 * 1024;
const REFS = /"\$(ref|dynamicRef|recursiveRef)"/;

/**
 * The worker: loads the tools folder's schema-validator module (compiled .js, or
 * the .ts source under the tests, which Node strips of types) and answers
 * `{id, schemaId, schema, value, root}` with `{id, problem}`. Schemas are cached by
 * the id the pool gives each schema object.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.validatorUrl).then(({ SchemaValidator }) => {
  const validator = new SchemaValidator();
  // Loads Ajv and RE2 (lazy in schema-validator.ts) before the first job's budget starts: the
  // budget is for the call's schema, not for loading libraries (issue 29 item 2; on a loaded
  // 2-core machine the first check took 300-800 ms of a 2000 ms budget, scripts/bench-schema.mjs).
  try {
    validator.validate({ type: 'object', properties: { s: { type: 'string', pattern: '^a' } } }, { s: 'a' });
  } catch {}
  const schemas = new Map();
  parentPort.on('message', (m) => {
    let schema = schemas.get(m.schemaId);
    if (!schema) {
      schema = m.schema;
      schemas.set(m.schemaId, schema);
      if (schemas.size > 256) schemas.delete(schemas.keys().next().value);
    }
    let problem = null;
    try { problem = validator.validate(schema, m.value, m.root); } catch { problem = null; }
    parentPort.postMessage({ id: m.id, problem });
  });
  parentPort.postMessage({ ready: true });
}, (err) => { throw err; });
`;

/**
 * Where the worker loads the validator from: tools/schema-validator.js, named from the folder
 * above so that it resolves the same from tsc's dist/main/tools/, from the CLI bundle's
 * dist/main/bundle/ (scripts/build-cli.mjs; the bundle has the pool inlined in a chunk, and
 * tsc's per-file validator sits in ../tools/) and from the TypeScript source main/tools/ under
 * the tests. In a packaged app this module lies inside
 * `resources/app.asar`; the worker reads the validator's copy in `app.asar.unpacked/` instead
 * (electron-builder.yml `asarUnpack` puts it there with the packages it require()s), so the worker
 * thread needs only plain files and never Electron's asar support inside workers (issue 32,
 * item 9). main/shell/packaging.test.ts runs that unpacked copy with plain Node.
 */
export function validatorUrlFor(moduleUrl: string): string {
  const url = new URL(
    moduleUrl.endsWith('.ts') ? '../tools/schema-validator.ts' : '../tools/schema-validator.js',
    moduleUrl,
  ).href;
  return url.replace(/\/app\.asar\//, '/app.asar.unpacked/');
}

const validatorUrl = validatorUrlFor(import.meta.url);

const STOPPING = 'Airlock is stopping; the call was neither checked nor run.';

/**
 * Why the pool answered without a validator's word: the caller words it for what was checked.
 * `unreadable`: the value could not be measured or handed to a worker — nested deeper than
 * JSON.stringify and structured clone go (a few thousand levels); parsed JSON is nothing else.
 */
type Refusal = 'stopping' | 'busy' | 'over-budget' | 'unreadable';

/** A validation's outcome: valid (or left unchecked, see below), the problems found, or a refusal. */
type Verdict = null | { problems: string } | { refused: Refusal };

/**
 * A tool result's `structuredContent` checked against the tool's `outputSchema` (checkResult):
 * valid, or `mismatch` (the problems found), or `unchecked` (why the check could not be made).
 */
export type ResultCheck = null | { mismatch: string } | { unchecked: string };

/** How a problem at the top of a tool result's structured content is named. */
const RESULT_ROOT = '(structuredContent)';

interface Job {
  schema: JsonSchema;
  value: unknown;
  owner: string | undefined;
  /** How a problem at the value's top is named (SchemaValidator.validate). */
  root: string | undefined;
  resolve: (verdict: Verdict) => void;
}

/** Off-thread validations one caller (an agent) may have running or waiting at once. */
const PER_OWNER = 4;

interface Slot {
  worker: Worker;
  /** The validator loaded; the budget of a job counts from then, not from the worker's start. */
  ready: boolean;
  /** `cancelBudget`: set once the job's budget runs (from the validator's load). */
  job: (Job & { id: number; cancelBudget?: () => void }) | null;
}

/**
 * Validates untrusted schemas with a time budget, off the main thread
 * (issue 17, item 3). A remote server's schema is attacker-controlled: even
 * with linear regexes, recursive `$ref`s can fan out exponentially over
 * nested arguments. A validation over budget has its worker terminated and
 * the call refused with a tool error that says so, while every other agent,
 * the UI and approvals go on being served.
 */
export class SchemaWorkerPool {
  private readonly inline = new SchemaValidator();
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  /**
   * Result checks over their owner's share, waiting for it (validateOffThread): a result's call
   * has run, so it is checked late rather than refused, and joins the queue as the owner's
   * earlier checks end — never ahead of another agent's.
   */
  private readonly backlog: Job[] = [];
  private readonly schemaIds = new WeakMap<JsonSchema, number>();
  private readonly inlineOk = new WeakMap<JsonSchema, boolean>();
  private readonly budgetMs: number;
  private readonly maxWorkers: number;
  private readonly budgetTimer: BudgetTimer;
  private nextId = 1;
  /** Set when a worker cannot start (e.g. a packaging problem): costly schemas then go unchecked here. */
  private broken = false;
  private closed = false;

  constructor(o: SchemaWorkerPoolOptions = {}) {
    this.budgetMs = o.budgetMs ?? DEFAULT_BUDGET_MS;
    this.maxWorkers = o.maxWorkers ?? 2;
    this.budgetTimer = o.budgetTimer ?? realTimer;
  }

  /**
   * Same answers as SchemaValidator.validate, or a refusal when the budget
   * runs out. `owner` (the agent) bounds how many of one caller's
   * validations may hold or wait for the workers, so one agent sending
   * costly calls in a loop does not queue every other agent behind it.
   */
  validate(schema: JsonSchema, value: unknown, owner?: string): Promise<string | null> {
    const inline = this.validateInline(schema, value);
    return inline === undefined
      ? this.validateOffThread(schema, value, owner, undefined, false).then((v) =>
          this.argumentsText(v),
        )
      : Promise.resolve(inline);
  }

  /**
   * A tool result's `structuredContent` against the tool's `outputSchema`, by the same rules as
   * arguments (inline when cheap, else in a worker within the budget; `owner`'s share counts it,
   * but a result over the share waits for it instead of being refused): an upstream's output schema is as much the attacker's as its input schema, and the MCP
   * SDK's own check of it ran a backtracking regex engine on the main thread (docs/security.md,
   * "Schemas are evaluated with bounded cost").
   */
  checkResult(schema: JsonSchema, value: unknown, owner?: string): Promise<ResultCheck> {
    let verdict: Verdict | Promise<Verdict>;
    try {
      // Measuring the value (cheap) and checking it inline recurse over it: a result nested
      // thousands deep throws RangeError here, which must be a refusal worded as such, not a
      // failure the caller words as "may or may not have reached" the server.
      verdict = this.cheap(schema, value)
        ? problemsOf(this.inline.validate(schema, value, RESULT_ROOT))
        : this.validateOffThread(schema, value, owner, RESULT_ROOT, true);
    } catch {
      verdict = { refused: 'unreadable' };
    }
    return Promise.resolve(verdict).then((v) => this.resultCheck(v));
  }

  /**
   * `validate`'s answer without a promise where the validation is cheap and runs inline, else
   * undefined (then `validate`): the call pipeline's everyday call awaits nothing for it (issue 34).
   */
  validateInline(schema: JsonSchema, value: unknown): string | null | undefined {
    // `cheap` for a schema measured before, here (issue 34: every call's arguments come here).
    const ok = this.inlineOk.get(schema);
    const cheap =
      ok === undefined
        ? this.cheap(schema, value)
        : ok && (JSON.stringify(value)?.length ?? 0) <= INLINE_VALUE_CHARS;
    return cheap ? this.inline.validate(schema, value) : undefined;
  }

  private validateOffThread(
    schema: JsonSchema,
    value: unknown,
    owner: string | undefined,
    root: string | undefined,
    /** Over the owner's share: wait for it (a result, whose call ran) rather than be refused. */
    waitForShare: boolean,
  ): Promise<Verdict> {
    if (this.closed) return Promise.resolve({ refused: 'stopping' });
    // No worker can run here (a packaging problem): rather than risk the main thread on a costly
    // schema, leave it to the upstream, which validates its own arguments (a result then goes on
    // unchecked, as from any client that does not check output schemas).
    if (this.broken) return Promise.resolve(null);
    const over = owner !== undefined && this.heldBy(owner) >= PER_OWNER;
    if (over && !waitForShare) return Promise.resolve({ refused: 'busy' });
    return new Promise((resolve) => {
      (over ? this.backlog : this.queue).push({ schema, value, owner, root, resolve });
      this.pump();
    });
  }

  /** A verdict on arguments, as the call pipeline tells the agent (after "Invalid arguments for …: "). */
  private argumentsText(v: Verdict): string | null {
    if (v === null) return null;
    if ('problems' in v) return v.problems;
    if (v.refused === 'stopping') return STOPPING;
    // Left to the upstream, which validates its own arguments, as an uncompilable schema is.
    if (v.refused === 'unreadable') return null;
    if (v.refused === 'busy')
      return (
        `Airlock is still checking ${PER_OWNER} earlier calls of yours against costly schemas; ` +
        'wait for their answers before sending more.'
      );
    return overBudget(this.budgetMs);
  }

  /** A verdict on a tool result (remote-calls.ts words it: the call did run). */
  private resultCheck(v: Verdict): ResultCheck {
    if (v === null) return null;
    if ('problems' in v) return { mismatch: v.problems };
    if (v.refused === 'stopping') return { unchecked: 'Airlock is stopping' };
    if (v.refused === 'unreadable')
      return { unchecked: 'its structured content is nested too deeply for Airlock to check' };
    // 'busy' cannot come here (a result waits for its owner's share): the budget's words.
    return {
      unchecked:
        `checking it went over Airlock's limits (${this.budgetMs} ms, 256 MB); if this keeps ` +
        "happening, the server's output schema is too costly to check (tell its maintainer)",
    };
  }

  private heldBy(owner: string): number {
    let n = 0;
    for (const j of this.queue) if (j.owner === owner) n++;
    for (const s of this.slots) if (s.job?.owner === owner) n++;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of [...this.backlog.splice(0), ...this.queue.splice(0)])
      job.resolve({ refused: 'stopping' });
    await Promise.allSettled([...this.slots].map((s) => s.worker.terminate()));
    this.slots.clear();
  }

  private cheap(schema: JsonSchema, value: unknown): boolean {
    let ok = this.inlineOk.get(schema);
    if (ok === undefined) {
      const text = JSON.stringify(schema);
      ok = text.length <= INLINE_SCHEMA_CHARS && !REFS.test(text);
      this.inlineOk.set(schema, ok);
    }
    return ok && (JSON.stringify(value)?.length ?? 0) <= INLINE_VALUE_CHARS;
  }

  private pump(): void {
    for (;;) {
      this.admitBacklog();
      if (this.queue.length === 0) return;
      let slot = [...this.slots].find((s) => !s.job);
      if (!slot && this.slots.size < this.maxWorkers) slot = this.spawn();
      if (!slot) return;
      this.run(slot, this.queue.shift()!);
    }
  }

  /** Result checks that waited for their owner's share join the queue as it frees up. */
  private admitBacklog(): void {
    for (let i = 0; i < this.backlog.length;) {
      const job = this.backlog[i]!;
      if (this.heldBy(job.owner!) < PER_OWNER) this.queue.push(...this.backlog.splice(i, 1));
      else i++;
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { validatorUrl },
      execArgv: ['--no-warnings'],
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    worker.unref();
    const slot: Slot = { worker, ready: false, job: null };
    this.slots.add(slot);
    worker.on('message', (m: { id?: number; ready?: boolean; problem?: string | null }) => {
      if (m.ready) {
        slot.ready = true;
        if (slot.job) slot.job.cancelBudget = this.startBudget(slot);
        return;
      }
      const job = slot.job;
      if (!job || m.id !== job.id) return;
      job.cancelBudget?.();
      slot.job = null;
      job.resolve(problemsOf(m.problem ?? null));
      this.pump();
    });
    worker.on('error', () => {
      // A worker that never loaded the validator (a packaging problem) means none will:
      // stop trying. One that ran out of memory on a hostile schema is just replaced.
      if (!slot.ready) this.broken = true;
    });
    worker.on('exit', () => {
      this.slots.delete(slot);
      const job = slot.job;
      slot.job = null;
      if (job) {
        job.cancelBudget?.();
        job.resolve(
          this.closed ? { refused: 'stopping' } : this.broken ? null : { refused: 'over-budget' },
        );
      }
      if (this.broken)
        for (const j of [...this.backlog.splice(0), ...this.queue.splice(0)]) j.resolve(null);
      else this.pump();
    });
    return slot;
  }

  private run(slot: Slot, job: Job): void {
    const id = this.nextId++;
    let schemaId = this.schemaIds.get(job.schema);
    if (schemaId === undefined) this.schemaIds.set(job.schema, (schemaId = this.nextId++));
    slot.job = { ...job, id };
    if (slot.ready) slot.job.cancelBudget = this.startBudget(slot);
    try {
      slot.worker.postMessage({
        id,
        schemaId,
        schema: job.schema,
        value: job.value,
        root: job.root,
      });
    } catch {
      // Not cloneable: parsed JSON nested deeper than structured clone goes (the caller words it).
      slot.job.cancelBudget?.();
      slot.job = null;
      job.resolve({ refused: 'unreadable' });
    }
  }

  private startBudget(slot: Slot): () => void {
    return this.budgetTimer(() => void slot.worker.terminate(), this.budgetMs);
  }
}

function problemsOf(problem: string | null): Verdict {
  return problem === null ? null : { problems: problem };
}

function overBudget(ms: number): string {
  return (
    `checking them against the tool's input schema went over Airlock's limits (${ms} ms, 256 MB), ` +
    'so the call was refused. Send smaller or less nested arguments; if this keeps happening, ' +
    "the server's schema is too costly to check (tell its maintainer)."
  );
}
