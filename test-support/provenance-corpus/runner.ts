import { Ajv2020 } from 'ajv/dist/2020.js';
import { calendarTestbed, type CalendarTestbed } from '../../e2e/fake-google/calendar-testbed.js';
import { account, StaticGoogleAccess } from '../../e2e/fake-google/gmail-access.js';
import { GmailFake } from '../../e2e/fake-google/gmail-fake.js';
import { GmailSource } from '../../main/google/gmail/source.js';
import { ProvenanceService } from '../../main/provenance/provenance-service.js';
import type { TaintReport } from '../../main/provenance/taint-check.js';
import { isReadOnly, type ToolDefinition, type ToolSource } from '../../main/tools/types.js';
import { capText } from '../../main/tools/result-shaping.js';
import { callContentOf } from '../../main/tools/call-content.js';
import { checkedCall } from '../../main/calls/call-pipeline.js';
import { withPublicLinks } from '../../main/tools/resource-links.js';
import { parse } from '../../main/platform/shape.js';
import { settingsSchema } from '../../main/platform/settings.js';
import { buildMail } from './mime.js';
import { heldOut, type Ids, type Session } from './session.js';
import { standingServers, ThirdPartyServer } from './third-party.js';
import { KNOWN_OUTSIDE, USER } from './world.js';

/**
 * Runs the provenance corpus (issue 30) the way the call pipeline drives the
 * service: every step's call is checked first (with the tool's own input
 * schema), then run on its real source — GmailSource against the fake Gmail
 * API, CalendarSource against the fake Calendar API, third-party servers with
 * Airlock's untrusted marking — and its result observed; the tool list the
 * agent was offered is observed at the start, and resources, prompts and
 * completions as the feature hub observes them. The judged call is the last.
 */

export interface Outcome {
  session: Session;
  flagged: boolean;
  report?: TaintReport;
  heldOut: boolean;
}

const ALICE_TOKEN = 'ya29.corpus-alice';
/** The default result budget, as a fresh settings file has it. */
const RESULT_CHARS = parse(settingsSchema, {}).limits.resultChars;

export class CorpusRunner {
  readonly svc: ProvenanceService;
  private gmail!: GmailFake;
  private calendar!: CalendarTestbed;
  private sources: ToolSource[] = [];
  private pages: Record<string, string> = {};
  private readonly threads = new Map<string, string>();
  /** Arguments are validated against the tool's schema first, as the call pipeline does. */
  private readonly ajv = new Ajv2020({ strict: false, validateFormats: false });

  /**
   * `judgedMayFail`: the judged (last) call is checked before it runs, so what the source then
   * answers does not change the outcome; the outside corpus's calls may be ones Gmail refuses
   * (a filter forwarding to an unverified address).
   */
  constructor(
    svc?: ProvenanceService,
    private readonly opts: { judgedMayFail?: boolean } = {},
  ) {
    this.svc = svc ?? corpusService();
  }

  async start(): Promise<this> {
    this.gmail = await new GmailFake([{ email: USER, token: ALICE_TOKEN }]).start();
    const access = new StaticGoogleAccess(this.gmail.root, [account(USER, ALICE_TOKEN)]);
    this.calendar = await calendarTestbed('2026-12-01T08:00:00Z');
    this.sources = [
      new GmailSource(access, { retry: { baseMs: 1 } }),
      this.calendar.source,
      ...standingServers(() => this.pages),
    ];
    await Promise.all(this.sources.map((s) => s.ready()));
    return this;
  }

  /** The fake Calendar API: a test makes the read before a call fail, as Google can. */
  get calendarApi(): CalendarTestbed['fake'] {
    return this.calendar.fake;
  }

  async stop(): Promise<void> {
    await this.gmail.stop();
    await this.calendar.stop();
  }

  /** Runs sessions; `onCheck` gets each outbound check's duration (for the bench). */
  async run(sessions: Session[], onCheck?: (ms: number) => void): Promise<Outcome[]> {
    const out: Outcome[] = [];
    for (const s of sessions) out.push(await this.runOne(s, onCheck));
    return out;
  }

  private async runOne(s: Session, onCheck?: (ms: number) => void): Promise<Outcome> {
    const ids: Ids = { mail: {}, event: {} };
    for (const m of s.mail ?? []) {
      const raw = await buildMail(m.spec);
      ids.mail[m.key] = this.gmail.add(
        USER,
        {
          raw,
          ...(m.labels ? { labelIds: m.labels } : {}),
          ...(m.thread ? { thread: `${s.id}/${m.thread}` } : {}),
        },
        this.threads,
      );
    }
    for (const e of s.events ?? []) {
      const stored = this.calendar.fake.seed(USER, USER, e.event);
      // A seed is inserted as a client that supports neither attachments nor conferences (the
      // fake drops both, as Google does without supportsAttachments / conferenceDataVersion=1);
      // a stranger's invitation was made by one that does, and Airlock's reader shows both.
      if (e.event.attachments) stored.attachments = e.event.attachments;
      if (e.event.conferenceData) stored.conferenceData = e.event.conferenceData;
      if (e.organizer) {
        stored.organizer = { email: e.organizer };
        stored.creator = { email: e.organizer };
      }
      ids.event[e.key] = stored.id!;
    }
    this.pages = s.pages ?? {};
    const extra = (s.servers ?? []).map((x) => new ThirdPartyServer(x.name, x.tools));
    const tools = toolIndex([...this.sources, ...extra]);
    const agent = s.id;
    // Optional call: lets the corpus also run against the rules before issue 30 (which had none).
    this.svc.observeTools?.(
      agent,
      [...tools.entries()].map(([name, t]) => ({
        name,
        description: t.def.description,
        inputSchema: t.def.inputSchema,
        sourceKind: t.source.kind,
        sourceLabel: t.source.label,
      })),
    );
    let last: Outcome = { session: s, flagged: false, heldOut: heldOut(s.id) };
    const all = s.steps(ids);
    for (const [i, step] of all.entries()) {
      if ('read' in step) {
        this.observeRead(agent, s, step);
        last = { ...last, flagged: false };
        continue;
      }
      const t = tools.get(step.tool);
      if (!t) throw new Error(`corpus ${s.id}: no tool ${step.tool}`);
      const validate = this.ajv.compile(t.def.inputSchema);
      if (!validate(step.args))
        throw new Error(
          `corpus ${s.id}: ${step.tool} arguments: ${this.ajv.errorsText(validate.errors)}`,
        );
      // The source's own refusal, as the call pipeline makes it before anything is read.
      const problem = t.source.validateArgs?.(t.def.name, step.args);
      if (problem) throw new Error(`corpus ${s.id}: ${step.tool} arguments: ${problem}`);
      const readOnly = isReadOnly(t.def);
      // What the call sends beyond its arguments (a draft's recipients and text, an event's
      // guests, a file taken from a message), read first and bound to the call by the call
      // pipeline's own reader (call-pipeline.ts, tools/call-content.ts callContentOf): a read that
      // fails or finds nothing falls back to what the arguments show (ToolSource.argsReach), as in
      // Airlock. Its bound is one no fake read reaches, so a loaded machine changes no figure.
      const entry = {
        name: step.tool,
        key: `${t.source.label}/${t.def.name}`,
        source: t.source,
        def: t.def,
      };
      const sends = readOnly
        ? null
        : await callContentOf(entry, step.args, new AbortController().signal, NO_READ_BOUND_MS);
      const args = sends?.bind ? { ...sends.bind, ...step.args } : step.args;
      // What the check judges, built by the call pipeline's own function.
      const facts = checkedCall(entry, args, sends);
      const report = this.svc.check(agent, facts);
      if (onCheck && (!readOnly || t.source.kind === 'remote')) onCheck(this.cost(agent, facts));
      last = {
        ...last,
        flagged: report !== null,
        ...(report ? { report } : { report: undefined }),
      };
      // What the agent receives, and so what the service observes, is the result as the call
      // pipeline shapes it (call-pipeline.ts execute): resource links made public, then cut to the
      // default result budget (settings limits.resultChars). Text past the cut never reaches the
      // agent, so it must not count toward what the check finds.
      const result = capText(
        withPublicLinks(
          await t.source.call(t.def.name, args, { agent, signal: new AbortController().signal }),
          t.source,
        ),
        RESULT_CHARS,
      );
      // A call that cannot run is a broken case, not a result.
      if (result.isError && !(this.opts.judgedMayFail && i === all.length - 1))
        throw new Error(`corpus ${s.id}: ${step.tool} failed: ${JSON.stringify(result.content)}`);
      this.svc.observe({
        agent,
        tool: step.tool,
        sourceKind: t.source.kind,
        sourceLabel: t.source.label,
        result,
      });
      // The answer reaches the agent before its next call: indexing runs then, as in Airlock.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return last;
  }

  /**
   * What one check costs: the least of a few runs of the same check (it only reads the index).
   * On a shared machine a single run's wall-clock time is mostly the scheduler's; the least of
   * five is the work itself.
   */
  private cost(agent: string, facts: Parameters<ProvenanceService['check']>[1]): number {
    let best = Infinity;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      this.svc.check(agent, facts);
      best = Math.min(best, performance.now() - t);
    }
    return best;
  }

  /** A resource, prompt or completion of a session's server, observed as the feature hub does. */
  private observeRead(
    agent: string,
    s: Session,
    step: Extract<ReturnType<Session['steps']>[number], { read: string }>,
  ): void {
    const server = s.servers?.find((x) => x.name === step.server);
    const text =
      step.read === 'resource'
        ? server?.resources?.[step.name]
        : step.read === 'prompt'
          ? server?.prompts?.[step.name]
          : server?.completions?.join('\n');
    if (text === undefined) throw new Error(`corpus ${s.id}: nothing to read at ${step.name}`);
    const what =
      step.read === 'resource'
        ? `resources/read ${step.name}`
        : step.read === 'prompt'
          ? `prompts/get ${step.name}`
          : 'completion/complete';
    this.svc.observe({
      agent,
      tool: what,
      sourceKind: 'remote',
      sourceLabel: step.server,
      result: { content: [{ type: 'text', text }] },
    });
  }
}

export function corpusService(): ProvenanceService {
  const svc = new ProvenanceService();
  svc.known.addOwnAccount(USER);
  for (const c of KNOWN_OUTSIDE) svc.known.seed('address', c);
  return svc;
}

/** The call-content read's bound in the corpus: longer than any fake read (setTimeout's maximum). */
const NO_READ_BOUND_MS = 2 ** 31 - 1;

function toolIndex(sources: ToolSource[]) {
  const out = new Map<string, { source: ToolSource; def: ToolDefinition }>();
  for (const source of sources)
    for (const def of source.tools())
      out.set(source.prefix ? `${source.prefix}__${def.name}` : def.name, { source, def });
  return out;
}

/** Detected / detectable and false flags / benign, for a set of outcomes. */
export function figures(outcomes: Outcome[]) {
  const injected = outcomes.filter((o) => o.session.kind === 'injected');
  const benign = outcomes.filter((o) => o.session.kind === 'benign');
  const limits = outcomes.filter((o) => o.session.kind === 'limit');
  return {
    detectable: injected.length,
    detected: injected.filter((o) => o.flagged).length,
    benign: benign.length,
    falseFlags: benign.filter((o) => o.flagged).length,
    missed: injected.filter((o) => !o.flagged).map((o) => o.session.id),
    falselyFlagged: benign.filter((o) => o.flagged).map((o) => o.session.id),
    limits: limits.map((o) => ({ id: o.session.id, flagged: o.flagged })),
  };
}
