import type {
  CallToolResult,
  Icon,
  ToolAnnotations,
  ToolExecution,
} from '@modelcontextprotocol/server';
import type { FeatureSource } from './features.js';
import type { ClientRelay } from './relay.js';

export type { CallToolResult, ToolAnnotations };

export type JsonSchema = Record<string, unknown>;

/** A tool as its source defines it; the registry gives it a public name. */
export interface ToolDefinition {
  /** Source-local name, unique within the source. */
  name: string;
  title?: string;
  description: string;
  /** JSON Schema (an object schema), passed to agents untouched. */
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /**
   * True when the source itself vouches that the tool only reads. Built-in
   * sources set it; remote sources must not (their annotations are untrusted
   * hints, docs/architecture.md "A tool call").
   */
  trustedReadOnly?: boolean;
  /** Passed to agents as the source declares them (issue 14: nothing dropped). */
  icons?: Icon[];
  /** The source's own `_meta` (e.g. MCP Apps' `ui.resourceUri`), passed through untouched. */
  _meta?: Record<string, unknown>;
  execution?: ToolExecution;
  /**
   * Why agents are not offered this tool (a source that knows it cannot run
   * it through Airlock). Listed in `airlock tools list` and
   * the Tools page with this reason; never in an agent's tools/list.
   */
  unavailable?: string;
}

/**
 * A progress channel to the agent (basic/utilities/progress): `meta` is the notification's
 * `_meta`, already filtered (untrusted.ts ownMeta). `request`, where the agent request behind the
 * channel can change while the work runs (a 2026-07-28 input round: the agent's retry is a request
 * of its own, with a progressToken of its own), names the request open now; each request's values
 * grow on their own (server-progress.ts).
 */
export interface ProgressSink {
  (progress: number, total?: number, message?: string, meta?: Record<string, unknown>): void;
  readonly request?: () => object | undefined;
}

export interface ToolCallContext {
  agent: string;
  signal: AbortSignal;
  /** Forwards progress to the agent when it asked for progress. */
  progress?: ProgressSink;
  /**
   * The calling agent's channel for server→client requests (sampling,
   * elicitation, roots) the source makes while serving this call. Absent when
   * the agent's request is gone; sources then refuse such requests.
   */
  relay?: ClientRelay;
  /**
   * performance.now() when the agent's request reached Airlock, for a wait that must end before
   * the agent gives up on it; absent where that is not known (a call run after an approval).
   */
  startedAt?: number;
  /** For a call run as an agent's task: the source's word on how it is going (its statusMessage). */
  taskStatus?: (message: string) => void;
}

/** How the gateway hands a call to the core: the client's cancellation and its progress channel. */
export interface CallOptions {
  signal: AbortSignal;
  progress?: ToolCallContext['progress'];
  /** Answer "waiting for approval" at once instead of blocking (the client was sent the approval URL). */
  noWait?: boolean;
  relay?: ClientRelay;
  taskStatus?: ToolCallContext['taskStatus'];
  /**
   * Cancelling withdraws a pending approval request at once, with no retry grace: a cancelled
   * task is never made again, so approving its card later must run nothing (tasks.ts).
   */
  withdrawOnCancel?: boolean;
}

export type SourceState =
  { state: 'loading' } | { state: 'ready' } | { state: 'error'; detail: string };

/**
 * A provider of tools: the built-in status tool, Google, each remote MCP
 * server. Adding a source never touches the gateway.
 */
export interface ToolSource extends FeatureSource {
  /** Stable id; part of every tool's stable key (`id/tool`). */
  readonly id: string;
  readonly kind: 'builtin' | 'google' | 'remote' | 'test';
  readonly label: string;
  /** Prefix for public names (`<prefix>__<tool>`), or '' for none. */
  readonly prefix: string;
  /** Resolves once the initial tool set is known (or the source gave up). */
  ready(): Promise<void>;
  status(): SourceState;
  tools(): readonly ToolDefinition[];
  /**
   * While the source is down (and so lists no tools): the tools it listed when it was last up,
   * for the Tools page to say why they are not offered (issue 28 item 5). Never offered to agents.
   */
  lastKnownTools?(): readonly ToolDefinition[];
  /**
   * Why no call of this offered tool can run now (a Google account did not allow what it needs),
   * or null: for the Tools page, decided by the code that refuses such a call.
   */
  toolProblem?(tool: string): string | null;
  /** The tool's own statement of what running it with these arguments does. */
  describeEffect?(tool: string, args: Record<string, unknown>): string;
  /**
   * How a grant reads this tool's calls (issue 27 item 1): which arguments name where the call
   * goes, read by the code that then acts on them. Absent (third-party tools): a scoped grant
   * falls back to its strictest reading (main/approvals/grant-scope.ts).
   */
  grantShape?(tool: string): GrantShape | undefined;
  /**
   * What a call sends that its arguments do not show, read before the taint check and a grant
   * decide (issue 33 item 2): a draft's recipients and text, the files it attaches. Only Airlock's
   * own sources are asked. Bounded by the caller (main/tools/call-content.ts); never rejects.
   */
  callContent?(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallContent | null>;
  /**
   * What a call reaches, read from its arguments alone by the tool's own parser (no request), for
   * a tool whose arguments name more than it sends to: a Gmail filter's forwarding address is
   * where it sends, its criteria only choose the mail (CallContent.forwards, selects). The taint
   * check reads it when callContent gives nothing (failed, slow, the call cancelled first), and
   * an approval teaches the user's circle only these destinations (main/app/provenance-wiring.ts):
   * a filter's `from` is no one the user chose to write to.
   */
  argsReach?(tool: string, args: Record<string, unknown>): CallContent | null;
  /**
   * Who this source talks to — a server's URL or command, the Google accounts — so a grant
   * made for one server does not carry over to another that offers the same tools (issue 27
   * item 5). Never a secret: it is hashed into a fingerprint stored on disk.
   */
  identity?(): string;
  /**
   * Whom this one call reaches, resolved by the code call() runs with (Gmail's and Calendar's
   * account pick): the account(s) `account` names, else the default one that may run the tool.
   * Only for a source that runs its tools itself and builds their definitions from what
   * identity() names alone (the Google accounts: each `account` enum lists them): a pending
   * approval's allow once is bound to this instead of the definition and identity()
   * (approvals/policy.ts runFingerprint), so connecting an unrelated account leaves it
   * allowable while a change of the account this call goes out from does not. Never a secret.
   */
  identityFor?(tool: string, args: Record<string, unknown>): string;
  /**
   * The same statement when it needs the service to be complete (e.g. "overlaps
   * 'Team sync'" for a new calendar event). Never rejects: falls back to
   * describeEffect's text. Optional; the approval path may prefer it. `signal` aborts shortly
   * before the approval's bound for the lookup (main/calls/effect-text.ts EFFECT_COMPOSE_MS):
   * its requests end there, and it answers at once with what the finished ones found.
   */
  describeEffectAsync?(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<string>;
  /**
   * Checks arguments beyond the JSON Schema (time zones, dates, addresses)
   * before a call is put to the user: returns what is wrong, or null. An
   * approval should never be asked for a call that cannot run.
   */
  validateArgs?(tool: string, args: Record<string, unknown>): string | null;
  /**
   * What only a read can show — the message, draft, label or event named does
   * not exist, the account's grant does not allow the call — checked before a
   * call is put to the user (issue 33 item 4): resolves to the refusal, or
   * null. Only definite answers refuse; a failed lookup resolves null and the
   * call reports for itself. Called only for calls about to be asked, and
   * bounded by the caller (main/tools/precheck.ts). Never rejects.
   */
  precheck?(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<string | null>;
  /**
   * Why this call must be put to the user whatever the policy or a grant says
   * — a standing side effect, such as a filter that forwards or deletes future
   * mail, or a call whose reach the checks could not read (callContent found
   * nothing: a draft's or an event's recipients) — or null. Asked after
   * callContent, on the arguments as bound by it.
   */
  alwaysAsk?(tool: string, args: Record<string, unknown>): string | null;
  /**
   * What an approval's edit ("Edit & Allow") may not change: the arguments the checks' read binds
   * (CallContent.bind — a draft's version, an event's etag) and the ones naming what was read (the
   * draft, the event, the account). The card showed that read; an edit that dropped the binding
   * would send whatever the thing is by then, and one that named another draft or event would
   * send something no check read (main/approvals/edit-binding.ts).
   */
  boundArgs?(tool: string): BoundArgs | undefined;
  call(tool: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<CallToolResult>;
  /** Subscribe to tool-set or status changes; returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
  stop?(): Promise<void>;
}

/** What a built-in tool says about its own arguments, for grants (issue 27 item 1). */
/** What a call sends beyond its arguments (ToolSource.callContent). */
export interface CallContent {
  /** The arguments as the taint check reads them: e.g. a draft's To, Cc, Bcc and text filled in. */
  args?: Record<string, unknown>;
  /**
   * Content the call sends whole (a file taken from a message), described as a result's
   * `_meta["airlock/provenance"]` items are (main/provenance ProvenanceMetaItem).
   */
  carried?: readonly Record<string, unknown>[];
  /** References under which the agent may have received what it sends (a file's digest). */
  refs?: readonly string[];
  /**
   * The destinations in `args` receive the user's mail from now on, not content the call holds
   * (a filter's `forward_to`: Gmail forwards it every matching message that arrives). Being a
   * party to what the agent read (a stranger's own organisation, someone they addressed) does
   * not clear such a destination for the taint check: the mail it gets is the user's, not the
   * conversation's (docs/provenance.md, "A party chosen by the stranger").
   */
  forwards?: boolean;
  /**
   * What a standing effect acts on, chosen by value (a filter's criteria: from, to, query), as
   * the tool reads it, under the argument names: nothing is sent there, so these are no
   * destinations of the call, but a value a stranger chose (not a party to what they wrote) is
   * shown on the card as choosing which of the user's mail the effect acts on.
   */
  selects?: Readonly<Record<string, unknown>>;
  /**
   * What the call puts before other people who will follow what it names, under the argument
   * names (an event's place, description and attachments, for its guests): every link, address,
   * host or number in it is a destination, as a recipient is, and a stranger's own is no party
   * to the people sent there (docs/provenance.md, "Written where others follow it").
   */
  shows?: Readonly<Record<string, unknown>>;
  /**
   * What the call destroys, hides or answers for the user with no destination, in words after
   * "This call" ("moves mail to the Trash", "creates a filter that archives matching mail"), as
   * the tool's own parser reads its arguments: judged by the instructed-effect rule
   * (main/provenance/instructed-effects.ts, docs/provenance.md "An instruction addressed to the
   * agent"). Absent: the call does none of it.
   */
  effect?: string;
  /**
   * Arguments the call is bound to by this read (a draft's version: gmail_send_draft's
   * `message_id`), added to the call's arguments before a grant, an approval or the run see them:
   * what runs, under a grant or once the user approves its card, is the version that was checked
   * and shown — not whichever version a later read of the same draft found. Only arguments the
   * tool's schema declares, and only ones the agent left out.
   */
  bind?: Readonly<Record<string, unknown>>;
}

/** ToolSource.boundArgs: what an edit of an approval leaves as the checks read it. */
export interface BoundArgs {
  /** Filled in by the checks' read (CallContent.bind): put back when an edit leaves one out. */
  bound: readonly string[];
  /** Name what was read (draft_id, event_id, account…): an edit may not change them. */
  named: readonly string[];
}

export interface GrantShape {
  /** Arguments that name recipients or guests (to, cc, bcc; attendees…): a domain grant covers them all. */
  recipientArgs: readonly string[];
  /** Arguments that only carry content (subject, body): any value under a scoped grant. */
  contentArgs: readonly string[];
  /**
   * Every address the call sends to or invites, read by the same parser the tool then uses;
   * throws when the arguments cannot be read (the call would fail, so no grant covers it).
   */
  destinations(args: Record<string, unknown>): string[];
  /**
   * The recipients come from state the arguments only name (gmail_send_draft: the draft's own
   * To, Cc and Bcc), so the same arguments can later reach other people. A scoped grant then
   * records the destinations of the call the user approved, and a grant that is not a domain
   * grant covers a later call only while every destination is one of them
   * (main/approvals/grant-scope.ts).
   */
  recipientsFromState?: boolean;
}

export function isReadOnly(def: ToolDefinition): boolean {
  return def.trustedReadOnly === true || def.annotations?.readOnlyHint === true;
}

/** Per the MCP spec, destructiveHint defaults to true for tools that are not read-only. */
export function isDestructive(def: ToolDefinition): boolean {
  if (isReadOnly(def)) return false;
  return def.annotations?.destructiveHint !== false;
}

export function errorResult(text: string, extra?: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }], ...extra };
}
