import { codeUnits, textPrefix } from '../../../common/text-cut.js';
import type {
  CompleteRequestParams,
  CompleteResult,
  FeatureContext,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  SourceNotice,
} from '../../tools/features.js';
import type { Logger } from '../../platform/log.js';
import type { Redactor } from '../connection/redact.js';
import { inRelayScope } from '../relay/relay-scope.js';
import { gotPrompt, listedPrompt, listedResource, listedTemplate } from './listed-words.js';
import { serverProgress } from '../server-progress.js';
import { UNTRUSTED_META_KEY, withoutUpstreamIdentity } from '../../tools/untrusted.js';
import { isServerAnswer, type Upstream } from '../upstream/upstream.js';
import {
  livedHealthy,
  RestartTimer,
  SYSTEM_CLOCK,
  type RetryClock,
} from '../connection/restart-backoff.js';
import { DEFAULT_TIMINGS, type RemoteTimings } from '../connection/timings.js';
import type {
  McpSubscription,
  RequestOptions,
  SubscriptionFilter,
} from '@modelcontextprotocol/client';
import {
  budgeted,
  ListBudget,
  ListCutError,
  ListLimitError,
  MAX_SERVER_PROMPTS,
  MAX_SERVER_RESOURCES,
  MAX_SERVER_TEMPLATES,
  type ListMethod,
} from '../upstream/list-budget.js';

/** The listen stream of one shared 2026-07-28 connection (RemoteFeatures.listenFor). */
interface Listening {
  /** The watched set of the open stream (sorted JSON), '' when none is open. */
  key: string;
  sub?: McpSubscription;
  /** When the open stream was acknowledged (the reopen clock's time). */
  opened: number;
  chain: Promise<void>;
  /** Reopens the stream after the server ended it. */
  reopen?: RestartTimer;
}

export interface FeatureLists {
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
  /** The resource list was cut at its bound (list-budget.ts): why, for the log. */
  cut?: string;
}

export const NO_FEATURES: FeatureLists = { resources: [], templates: [], prompts: [] };

/**
 * Every resource, template and prompt the server declares it has (all pages), bounded in time and
 * in count, each count checked as the pages arrive (list-budget.ts): too many templates or prompts
 * fail the listing (the server is in error, naming the bound); too many resources cut the list.
 */
export async function listFeatures(up: Upstream, timeoutMs: number): Promise<FeatureLists> {
  const caps = up.client.getServerCapabilities() ?? {};
  const opts = { timeout: timeoutMs, cacheMode: 'refresh' as const };
  const bound = (method: ListMethod, limit: number, cut = false) =>
    budgeted(opts, new ListBudget(method, limit, cut));
  let cut: string | undefined;
  const [listed, templates, prompts] = await Promise.all([
    caps.resources
      ? up.client
          .listResources(undefined, bound('resources/list', MAX_SERVER_RESOURCES, true))
          .then(
            (r) => r.resources,
            (err: unknown) => {
              if (!(err instanceof ListCutError)) throw err;
              cut = err.message;
              return err.kept as Resource[];
            },
          )
      : [],
    caps.resources
      ? up.client
          .listResourceTemplates(undefined, bound('resources/templates/list', MAX_SERVER_TEMPLATES))
          .then((r) => r.resourceTemplates)
          // Some servers offer resources without templates and answer -32601; too many is no such case.
          .catch((err: unknown) => {
            if (err instanceof ListLimitError) throw err;
            return [];
          })
      : [],
    caps.prompts
      ? up.client
          .listPrompts(undefined, bound('prompts/list', MAX_SERVER_PROMPTS))
          .then((r) => r.prompts)
      : [],
  ]);
  // The aggregates too: should an SDK update stop handing pages through with the options.
  let resources = listed;
  if (listed.length > MAX_SERVER_RESOURCES) {
    cut = `the server lists ${listed.length} resources; Airlock lists the first ${MAX_SERVER_RESOURCES}`;
    resources = listed.slice(0, MAX_SERVER_RESOURCES);
  }
  for (const [list, what, limit] of [
    [templates, 'resource templates', MAX_SERVER_TEMPLATES],
    [prompts, 'prompts', MAX_SERVER_PROMPTS],
  ] as const)
    if (list.length > limit)
      throw new ListLimitError(
        `the server lists ${list.length} ${what}; Airlock takes at most ${limit} from one server`,
      );
  // Taken in here, for both protocol eras: every display string and `_meta` as the server's
  // (listed-words.ts, docs/security.md R-1).
  return {
    resources: resources.map(listedResource),
    templates: templates.map(listedTemplate),
    prompts: prompts.map(listedPrompt),
    ...(cut ? { cut } : {}),
  };
}

/**
 * Resources, prompts, completion and logging of one remote server (issue 14),
 * beside RemoteSource's tools. Holds what agents asked for (the most verbose
 * log level, the subscribed URIs) and re-applies it to every new upstream
 * session, so a reconnect loses nothing.
 */
export class RemoteFeatures {
  private readonly levels = new Map<string, LoggingLevel>();
  private readonly wanted = new Map<string, Set<string>>();
  private readonly subscribed = new WeakMap<Upstream, Set<string>>();
  /** Per upstream session: the level last sent to it, and the send on its way. */
  private readonly sentLevel = new WeakMap<
    Upstream,
    { level?: LoggingLevel; sending?: Promise<void> | undefined }
  >();
  private readonly listeners = new Set<(n: SourceNotice) => void>();
  /** Per shared 2026-07-28 connection: the one listen stream watching every agent's URIs. */
  private readonly listening = new WeakMap<Upstream, Listening>();
  private readonly shared: (up: Upstream) => boolean;
  private readonly t: RemoteTimings;
  private readonly clock: RetryClock;

  constructor(
    private readonly label: string,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
    /** The connection's redactor (redact.ts): a notice is the upstream's text reaching agents. */
    private readonly redactor?: Pick<Redactor, 'result' | 'text'>,
    /** Reopening a listen stream the server ended (listenEnded): the backoff, and its clock. */
    reopen: {
      /** Whether `up` is still the server's shared connection. */
      shared?: (up: Upstream) => boolean;
      t?: RemoteTimings;
      clock?: RetryClock;
    } = {},
  ) {
    this.shared = reopen.shared ?? (() => true);
    this.t = reopen.t ?? DEFAULT_TIMINGS;
    this.clock = reopen.clock ?? SYSTEM_CLOCK;
  }

  onNotice(listener: (n: SourceNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notice(n: SourceNotice): void {
    const r = this.redactor;
    const out = r ? redactedNotice(n, (x) => r.result(x)) : n;
    for (const l of this.listeners) l(out);
  }

  async readResource(up: Upstream, uri: string, ctx: FeatureContext): Promise<ReadResourceResult> {
    const r = await inRelayScope(ctx, () =>
      up.client.readResource({ uri }, { ...this.requestOptions(ctx), cacheMode: 'bypass' }),
    );
    return this.marked(withoutUpstreamIdentity(r as ReadResourceResult));
  }

  async getPrompt(
    up: Upstream,
    name: string,
    args: Record<string, string> | undefined,
    ctx: FeatureContext,
  ): Promise<GetPromptResult> {
    const r = await inRelayScope(ctx, () =>
      up.client.getPrompt({ name, ...(args ? { arguments: args } : {}) }, this.requestOptions(ctx)),
    );
    return this.marked(withoutUpstreamIdentity(gotPrompt(r as GetPromptResult)));
  }

  /**
   * A read's options: the agent's cancellation, the bound, and its progress when it asked for
   * progress (basic/utilities/progress: any request may carry a progressToken) — the server's
   * progress reaches it as a tool call's does (server-progress.ts), its words labelled, and the
   * request as a whole within a call's bound.
   */
  private requestOptions(ctx: FeatureContext): RequestOptions {
    const o: RequestOptions = { signal: ctx.signal, timeout: this.timeoutMs };
    if (ctx.progress) {
      const r = this.redactor;
      o.onprogress = serverProgress(
        this.label,
        { text: (m) => (r ? r.text(m) : m), value: (x) => (r ? r.result(x) : x) },
        ctx.progress,
      );
      o.resetTimeoutOnProgress = true;
      // Progress resets the idle bound, so a server that keeps reporting would hold the read
      // open forever: the whole request is bounded as a call is (callMaxMs, remote-calls.ts).
      o.maxTotalTimeout = this.t.callMaxMs;
    }
    return o;
  }

  /** Third-party content, like a tool result (untrusted.ts): marked for programs in `_meta`. */
  private marked<T extends { _meta?: Record<string, unknown> }>(r: T): T {
    return {
      ...r,
      _meta: { ...(r._meta ?? {}), [UNTRUSTED_META_KEY]: { source: 'remote', server: this.label } },
    };
  }

  async complete(
    up: Upstream,
    params: CompleteRequestParams,
    ctx: FeatureContext,
  ): Promise<CompleteResult> {
    if (!up.client.getServerCapabilities()?.completions)
      return { completion: { values: [], hasMore: false } };
    const r = await up.client.complete(params, this.requestOptions(ctx));
    return withoutUpstreamIdentity(r);
  }

  /** Remembers the agent's level and applies it to the agent's own session, if open. */
  async setLogLevel(agent: string, up: Upstream | null, level: LoggingLevel | null): Promise<void> {
    if (level === null) this.levels.delete(agent);
    else this.levels.set(agent, level);
    if (up) await this.applyLevel(agent, up);
  }

  async setSubscriptions(
    agent: string,
    up: Upstream | null,
    uris: ReadonlySet<string>,
  ): Promise<void> {
    if (uris.size === 0) this.wanted.delete(agent);
    else this.wanted.set(agent, new Set(uris));
    if (up) await this.applySubscriptions(agent, up);
  }

  /** The agent's requested log level, for servers that take it per request (2026-07-28). */
  levelOf(agent: string): LoggingLevel | undefined {
    return this.levels.get(agent);
  }

  hasState(agent: string): boolean {
    return this.levels.has(agent) || this.wanted.has(agent);
  }

  forget(agent: string): void {
    this.levels.delete(agent);
    this.wanted.delete(agent);
  }

  /** A new session starts with none of the old one's state: give it the agent's. */
  async restore(agent: string, up: Upstream): Promise<void> {
    await Promise.all([this.applyLevel(agent, up), this.applySubscriptions(agent, up)]);
  }

  /**
   * Sets the agent's level on its session: one `logging/setLevel` at a time per session, only
   * when the level differs from the one it last sent, and the newest level last (issue 27,
   * item 7: 2,000 setLevel calls each sent one at once, and their pile of waiting requests
   * grew the process by 72–86 MiB).
   */
  private applyLevel(agent: string, up: Upstream): Promise<void> {
    // Servers without the logging capability never log; an agent that never asked keeps the server's default.
    if (!this.levels.has(agent) || !up.client.getServerCapabilities()?.logging)
      return Promise.resolve();
    let st = this.sentLevel.get(up);
    if (!st) this.sentLevel.set(up, (st = {}));
    const s = st;
    // One on its way: it looks again for the newest level when it is answered.
    if (s.sending) return s.sending;
    if (this.levels.get(agent) === s.level) return Promise.resolve();
    s.sending = (async () => {
      try {
        for (let level = this.levels.get(agent); level !== undefined && level !== s.level;) {
          s.level = level;
          await up.client
            .setLoggingLevel(level, { timeout: this.timeoutMs })
            .catch((err: unknown) => this.warn('logging/setLevel', err));
          level = this.levels.get(agent);
        }
      } finally {
        s.sending = undefined;
      }
    })();
    return s.sending;
  }

  /**
   * A server without a session per agent (2026-07-28, or 2025 without a session id) is shared: the
   * URIs any agent watches are watched there once, and FeatureSessions hands each
   * `notifications/resources/updated` only to the sessions subscribed to that URI. A 2026-07-28
   * server has no `resources/subscribe`: it delivers updates on a `subscriptions/listen` stream
   * whose filter names the URIs (SEP-2575 era), reopened whenever the set changes. Without this
   * the agent's subscription was answered and never served.
   */
  applyShared(up: Upstream): Promise<void> {
    const all = new Set<string>();
    for (const uris of this.wanted.values()) for (const uri of uris) all.add(uri);
    if (up.client.getProtocolEra() === 'modern') return this.listenFor(up, all);
    return this.subscribeTo(up, all);
  }

  /**
   * One listen stream per shared connection, watching `uris`. A new set is opened before the old
   * stream is closed (make before break): the old one keeps watching its URIs until the server
   * has acknowledged the new one, so an update sent meanwhile still arrives — at worst twice, on
   * both, which only makes an agent read again. One change at a time per connection (`chain`).
   */
  private listenFor(up: Upstream, uris: ReadonlySet<string>): Promise<void> {
    let st = this.listening.get(up);
    if (!st) this.listening.set(up, (st = { key: '', opened: 0, chain: Promise.resolve() }));
    const w = st;
    const key = JSON.stringify([...uris].sort());
    w.chain = w.chain.then(async () => {
      if (w.key === key && w.sub) return;
      const old = w.sub;
      if (!uris.size || !up.client.getServerCapabilities()?.resources) {
        w.reopen?.cancel();
        w.sub = undefined;
        w.key = '';
        await old?.close().catch(() => {});
        return;
      }
      let sub: McpSubscription;
      try {
        sub = await up.client.listen(
          { resourceSubscriptions: [...uris] },
          { timeout: this.timeoutMs },
        );
      } catch (err) {
        // The old stream, if any, stays: it still watches what both sets share.
        this.warn('subscriptions/listen', err);
        // A refusal is the server's answer; anything else (the network, no acknowledgement in
        // time) is tried again after a wait.
        if (!isServerAnswer(err)) this.reopenLater(up, w);
        return;
      }
      w.sub = sub;
      w.key = key;
      w.opened = this.clock.now();
      w.reopen?.cancel();
      void sub.closed.then((cause) => this.listenEnded(up, w, sub, cause));
      await old?.close().catch(() => {});
    });
    return w.chain;
  }

  /**
   * The server (or the network) ended the stream: it is opened again after a wait, driven by the
   * reconnect backoff (restart-backoff.ts), so agents' subscriptions do not go quiet until the
   * watched set next changes. A stream that stayed open 10 s was a healthy one (a proxy's idle
   * cut, say: restart-backoff.ts HEALTHY_STREAM_MS): the wait starts afresh. One that a server
   * ends sooner, every time, is reopened at a growing interval, up to `backoffMaxMs` (give or
   * take the jitter). Updates the server had
   * while no stream was open are not replayed: 2026-07-28 listen has no resumption to ask for.
   */
  private listenEnded(up: Upstream, w: Listening, sub: McpSubscription, cause: string): void {
    // Replaced or closed by Airlock: nothing to reopen.
    if (w.sub !== sub || cause === 'local') return;
    w.sub = undefined;
    w.key = '';
    if (livedHealthy(this.clock.now() - w.opened, this.t)) w.reopen?.reset();
    this.reopenLater(up, w);
  }

  private reopenLater(up: Upstream, w: Listening): void {
    // A connection that is no longer the shared one listens no more: its successor opens its own.
    if (!this.shared(up)) return;
    w.reopen ??= new RestartTimer(
      this.t,
      () => {
        if (this.shared(up)) void this.applyShared(up);
      },
      this.clock,
    );
    w.reopen.schedule(undefined);
  }

  /**
   * The SDK client opens one listen stream for list changes when it connects to a 2026-07-28
   * server (ClientOptions.listChanged, upstream-features.ts) and never opens it again ("No
   * automatic re-listen", Client.listen): once the server ended it, no `list_changed` reached
   * Airlock until the next reconnect. It is reopened as the resource watch is (listenEnded), and
   * after each reopen `missed` is told which lists to read again, since a change made while no
   * stream was open was said to no one.
   */
  followListChanges(up: Upstream, missed: (filter: SubscriptionFilter) => void): void {
    const first = up.client.autoOpenedSubscription;
    if (!first) return;
    const filter: SubscriptionFilter = {
      ...(first.honoredFilter.toolsListChanged ? { toolsListChanged: true } : {}),
      ...(first.honoredFilter.promptsListChanged ? { promptsListChanged: true } : {}),
      ...(first.honoredFilter.resourcesListChanged ? { resourcesListChanged: true } : {}),
    };
    if (!Object.keys(filter).length) return;
    let opened = this.clock.now();
    const reopen = async () => {
      if (!this.shared(up)) return;
      let sub: McpSubscription;
      try {
        sub = await up.client.listen(filter, { timeout: this.timeoutMs });
      } catch (err) {
        this.warn('subscriptions/listen', err);
        if (!isServerAnswer(err)) timer.schedule(undefined);
        return;
      }
      opened = this.clock.now();
      follow(sub);
      missed(filter);
    };
    const timer = new RestartTimer(this.t, () => void reopen(), this.clock);
    const follow = (sub: McpSubscription) =>
      void sub.closed.then((cause) => {
        if (cause === 'local' || !this.shared(up)) return;
        if (livedHealthy(this.clock.now() - opened, this.t)) timer.reset();
        timer.schedule(undefined);
      });
    follow(first);
  }

  private async applySubscriptions(agent: string, up: Upstream): Promise<void> {
    return this.subscribeTo(up, this.wanted.get(agent) ?? new Set<string>());
  }

  private async subscribeTo(up: Upstream, wanted: ReadonlySet<string>): Promise<void> {
    if (!up.client.getServerCapabilities()?.resources?.subscribe) return;
    const have = this.subscribed.get(up) ?? new Set<string>();
    this.subscribed.set(up, have);
    const opts = { timeout: this.timeoutMs };
    const jobs: Promise<unknown>[] = [];
    for (const uri of wanted)
      if (!have.has(uri)) {
        have.add(uri);
        jobs.push(
          up.client
            .subscribeResource({ uri }, opts)
            .catch((err: unknown) => (have.delete(uri), this.warn('resources/subscribe', err))),
        );
      }
    for (const uri of have)
      if (!wanted.has(uri)) {
        have.delete(uri);
        jobs.push(
          up.client
            .unsubscribeResource({ uri }, opts)
            .catch((err: unknown) => this.warn('resources/unsubscribe', err)),
        );
      }
    await Promise.all(jobs);
  }

  /** A resource list cut at its bound (listFeatures) is said in the log, once per reason. */
  noteCut(lists: FeatureLists): void {
    if (!lists.cut || lists.cut === this.lastCut) return;
    this.lastCut = lists.cut;
    this.logger.warn('remote server lists too many resources', {
      server: this.label,
      detail: lists.cut,
    });
  }
  private lastCut: string | undefined;

  private warn(what: string, err: unknown): void {
    this.logger.warn('remote server refused a request', {
      server: this.label,
      request: what,
      error: err instanceof Error ? textPrefix(err.message, 200, codeUnits) : String(err),
    });
  }
}

/** A notice's upstream words redacted; `call` (the agent's relay) is ours and is kept as it is. */
function redactedNotice(n: SourceNotice, redact: <T extends object>(x: T) => T): SourceNotice {
  // The server's `_meta` is its words too: a credential it echoes there is redacted as in `data`.
  if (n.kind === 'resource-updated') {
    const words = redact({ uri: n.uri, _meta: n._meta });
    return { ...n, uri: words.uri, ...(words._meta !== undefined ? { _meta: words._meta } : {}) };
  }
  if (n.kind !== 'log') return n;
  const words = redact({ data: n.data, logger: n.logger, _meta: n._meta });
  return {
    ...n,
    data: words.data,
    ...(words.logger !== undefined ? { logger: words.logger } : {}),
    ...(words._meta !== undefined ? { _meta: words._meta } : {}),
  };
}
