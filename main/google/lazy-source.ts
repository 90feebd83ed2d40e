import {
  type BoundArgs,
  errorResult,
  type CallContent,
  type CallToolResult,
  type GrantShape,
  type SourceState,
  type ToolCallContext,
  type ToolDefinition,
  type ToolSource,
} from '../tools/types.js';
import type { GoogleAccountAccess } from './account-access.js';
import { lazy } from './lazy.js';

/** Builds a real source over the accounts. */
export type SourceFactory = (access: GoogleAccountAccess) => ToolSource;

/** How the stand-in names the source before its module is loaded (the real source's own fields). */
export interface LazySourceInfo {
  id: string;
  label: string;
  /** Loads the source's module: its factory. */
  load: () => Promise<SourceFactory>;
  /** The factory if the module has loaded already, so an account change builds the source at once. */
  loaded?: () => SourceFactory | undefined;
}

interface GoogleToolModules {
  gmail: SourceFactory;
  calendar: SourceFactory;
}
let modules: GoogleToolModules | undefined;

/**
 * Gmail's and Calendar's modules, loaded together (one account change adds both tool sets at
 * once). Also called by the consent flow before it lists a new account (google-control.ts), so
 * the tools are there the moment the account is, as when these modules loaded at start.
 */
export const loadGoogleTools = lazy(async (): Promise<GoogleToolModules> => {
  const [g, c] = await Promise.all([
    import('./gmail/index.js'),
    import('./calendar/calendar-source.js'),
  ]);
  modules = { gmail: (a) => g.createGmailSource(a), calendar: (a) => c.createCalendarSource(a) };
  return modules;
});

/**
 * A Google source (Gmail, Calendar) whose module — tool definitions, handlers, MIME, luxon,
 * ≈ 90 modules, ≈ 17 MiB and 75 ms of CPU at start (issue 34) — loads only once a Google account
 * is connected. With no account neither source offers a tool (gmail/tools.ts,
 * calendar/definitions.ts both return none), so there is nothing to list, check or call until
 * then. An account connected at start loads it before ready() resolves, so the first tools/list
 * is the same as before; an account connected later loads it and then announces the new tools,
 * as the real source does on an account change. Once loaded, every question goes to the real
 * source unchanged. A failed load is a source error with the reason (the Tools page and a caller
 * see it), retried on the next account change.
 */
export class LazyGoogleSource implements ToolSource {
  readonly id: string;
  readonly kind = 'google' as const;
  readonly label: string;
  readonly prefix = '';
  private inner: ToolSource | null = null;
  private failure: string | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly offAccess: () => void;
  private readonly loadInner: () => Promise<ToolSource>;

  constructor(
    private readonly access: GoogleAccountAccess,
    private readonly info: LazySourceInfo,
  ) {
    this.id = info.id;
    this.label = info.label;
    this.loadInner = lazy(async () => this.adopt(await info.load()));
    this.offAccess = access.onChange(() => {
      if (this.inner || !this.needed()) return;
      // Loaded already (the consent flow loads it first): the tools change with the accounts, at once.
      const factory = info.loaded?.();
      if (factory) {
        this.adopt(factory);
        this.emit();
      } else void this.ensure().then(() => this.emit());
    });
  }

  private adopt(factory: SourceFactory): ToolSource {
    if (this.inner) return this.inner;
    const inner = factory(this.access);
    inner.onChange(() => this.emit());
    this.inner = inner;
    return inner;
  }

  /** Loads the real source now (the first call, or an account that makes tools to list). */
  private async ensure(): Promise<ToolSource | null> {
    if (this.inner) return this.inner;
    try {
      const inner = await this.loadInner();
      this.failure = null;
      return inner;
    } catch (err) {
      this.failure = `${this.label}'s tools could not be loaded: ${err instanceof Error ? err.message : String(err)}`;
      return null;
    }
  }

  private needed(): boolean {
    return this.access.accounts().length > 0;
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }

  async ready(): Promise<void> {
    if (!this.inner && this.needed()) await this.ensure();
    await this.inner?.ready();
  }

  status(): SourceState {
    if (this.failure && !this.inner) return { state: 'error', detail: this.failure };
    return this.inner?.status() ?? { state: 'ready' };
  }

  tools(): readonly ToolDefinition[] {
    return this.inner?.tools() ?? [];
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  toolProblem(tool: string): string | null {
    return this.inner?.toolProblem?.(tool) ?? null;
  }

  describeEffect(tool: string, args: Record<string, unknown>): string {
    return this.inner?.describeEffect?.(tool, args) ?? `${this.label}: ${tool}`;
  }

  grantShape(tool: string): GrantShape | undefined {
    return this.inner?.grantShape?.(tool);
  }

  async callContent(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallContent | null> {
    const inner = await this.ensure();
    return (await inner?.callContent?.(tool, args, signal)) ?? null;
  }

  /** The accounts, in order: what both real sources answer (a grant's server), loaded or not. */
  identity(): string {
    return (
      this.inner?.identity?.() ??
      JSON.stringify(this.access.accounts().map((a) => [a.email.toLowerCase(), a.readOnly]))
    );
  }

  /**
   * Whom one call reaches (the real source's account pick). Before the module loads there is no
   * tool to call, so this is never asked then; the accounts stand in.
   */
  identityFor(tool: string, args: Record<string, unknown>): string {
    return this.inner?.identityFor?.(tool, args) ?? this.identity();
  }

  async describeEffectAsync(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<string> {
    const inner = await this.ensure();
    if (inner?.describeEffectAsync) return inner.describeEffectAsync(tool, args, signal);
    return this.describeEffect(tool, args);
  }

  validateArgs(tool: string, args: Record<string, unknown>): string | null {
    return this.inner?.validateArgs?.(tool, args) ?? null;
  }

  async precheck(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<string | null> {
    const inner = await this.ensure();
    return (await inner?.precheck?.(tool, args, signal)) ?? null;
  }

  alwaysAsk(tool: string, args: Record<string, unknown>): string | null {
    return this.inner?.alwaysAsk?.(tool, args) ?? null;
  }

  /**
   * What a call reaches read from its arguments alone, when the read before it fails or is slow
   * (tools/call-content.ts callContentOf): a filter's forward, what a trash or a delete does
   * (CallContent.effect). The app registers this stand-in, so without it a failed read left the
   * checks with nothing. Before the module loads there is no tool to call.
   */
  argsReach(tool: string, args: Record<string, unknown>): CallContent | null {
    return this.inner?.argsReach?.(tool, args) ?? null;
  }

  /**
   * What an approval's edit may not change (approvals/edit-binding.ts). The app registers this
   * stand-in, not the real source: a question it does not pass on is answered "nothing", and
   * an Edit & Allow could then drop or change what the checks bound.
   */
  boundArgs(tool: string): BoundArgs | undefined {
    return this.inner?.boundArgs?.(tool);
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
    ctx: ToolCallContext,
  ): Promise<CallToolResult> {
    const inner = await this.ensure();
    if (!inner) return errorResult(this.failure ?? `${this.label}'s tools could not be loaded.`);
    return inner.call(tool, args, ctx);
  }

  async stop(): Promise<void> {
    this.offAccess();
    this.listeners.clear();
    await this.inner?.stop?.();
  }
}

/** Gmail, its module loaded once an account is connected (main/google/gmail/source.ts). */
export function lazyGmailSource(access: GoogleAccountAccess): ToolSource {
  return new LazyGoogleSource(access, {
    id: 'gmail',
    label: 'Gmail',
    load: async () => (await loadGoogleTools()).gmail,
    loaded: () => modules?.gmail,
  });
}

/** Calendar, its module loaded once an account is connected (main/google/calendar/calendar-source.ts). */
export function lazyCalendarSource(access: GoogleAccountAccess): ToolSource {
  return new LazyGoogleSource(access, {
    id: 'google-calendar',
    label: 'Google Calendar',
    load: async () => (await loadGoogleTools()).calendar,
    loaded: () => modules?.calendar,
  });
}
