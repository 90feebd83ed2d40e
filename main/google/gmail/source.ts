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
} from '../../tools/types.js';
import { GoogleToolError, type GoogleAccountAccess } from '../account-access.js';
import { scopeProblem, toolScopeProblem } from './account-pick.js';
import { gmailReach } from './call-reach.js';
import { Recent, SeenMessages } from './cache.js';
import { DEFAULT_RETRY, GmailClient, type RetryPolicy } from './client.js';
import { BadInput } from './compose.js';
import { type GmailCallContext } from './context.js';
import { DraftMemory } from './draft-view.js';
import { GmailEffects } from './effects.js';
import { toolErrorResult } from '../errors.js';
import { standingEffect, type Filter } from './filters.js';
import { LabelDirectory } from './labels.js';
import { acrossAccounts } from './multi.js';
import { reachIdentity, unreached } from '../reach-identity.js';
import { SpanError } from '../spanning.js';
import { AdaptivePool } from './pool.js';
import { gmailPrecheck } from './precheck.js';
import { SendAsNames } from './send-as.js';
import { ARG_CHECKS, HANDLERS } from './tool-handlers.js';
import { toolDefinitions } from './tools.js';
import { gmailGrantShape } from './grant-shape.js';
import { gmailArgsReach, gmailCallContent } from './call-content.js';
import type { AttachmentSource } from './outgoing-attachments.js';

export interface GmailSourceOptions {
  /** Source id, part of every tool's stable key. Default "gmail". */
  id?: string;
  /**
   * Requests in flight for one multi-message write (gmail_trash); halves on
   * each rate limit. Searches batch their reads instead (batch.ts).
   */
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  /** Largest attachment gmail_read_attachment downloads. Default 15 MB. */
  maxAttachmentBytes?: number;
  /** Largest file gmail_get_attachment returns (base64 grows it by a third). Default 5 MB. */
  maxDownloadBytes?: number;
}

/**
 * Gmail tools (issue 6) for the connected Google accounts, on
 * `@googleapis/gmail`. The tool set follows the accounts: it is recomputed
 * when they change, write tools exist only for accounts that may write, and
 * every failure comes back as a readable isError result — call() never throws.
 */
export class GmailSource implements ToolSource {
  readonly id: string;
  readonly kind = 'google' as const;
  readonly label = 'Gmail';
  readonly prefix = '';
  private defs: ToolDefinition[];
  private readonly listeners = new Set<() => void>();
  private readonly off: () => void;
  private readonly labels = new LabelDirectory();
  private readonly seen = new SeenMessages();
  private readonly drafts = new DraftMemory();
  private readonly filters = new Recent<Filter>(200);
  private readonly attachmentSources = new Recent<AttachmentSource>(200);
  private readonly sendAs = new SendAsNames();
  private readonly effects: GmailEffects;
  private readonly retry: RetryPolicy;
  private readonly concurrency: number;
  private readonly maxAttachmentBytes: number;
  private readonly maxDownloadBytes: number;

  constructor(
    private readonly access: GoogleAccountAccess,
    options: GmailSourceOptions = {},
  ) {
    this.id = options.id ?? 'gmail';
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.concurrency = options.concurrency ?? 25;
    this.maxAttachmentBytes = options.maxAttachmentBytes ?? 15 * 1024 * 1024;
    this.maxDownloadBytes = options.maxDownloadBytes ?? 5 * 1024 * 1024;
    this.defs = toolDefinitions(access.accounts());
    this.effects = new GmailEffects({
      access,
      seen: this.seen,
      drafts: this.drafts,
      sendAs: this.sendAs,
      labels: this.labels,
      filters: this.filters,
      attachmentSources: this.attachmentSources,
      retry: this.retry,
      defs: () => this.defs,
    });
    this.off = access.onChange(() => {
      this.defs = toolDefinitions(access.accounts());
      for (const l of this.listeners) l();
    });
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  status(): SourceState {
    return { state: 'ready' };
  }

  tools(): readonly ToolDefinition[] {
    return this.defs;
  }

  toolProblem(tool: string): string | null {
    return toolScopeProblem(this.access, tool);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  grantShape(tool: string): GrantShape | undefined {
    return gmailGrantShape(tool, { access: this.access, drafts: this.drafts });
  }

  /** A draft's recipients and an outgoing mail's files, read before the checks (call-content.ts). */
  callContent(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CallContent | null> {
    return gmailCallContent(this.shared(), tool, args, signal);
  }

  /** A filter's reach by parseFilter, and what a call hides or destroys (call-content.ts). */
  argsReach(tool: string, args: Record<string, unknown>): CallContent | null {
    return gmailArgsReach(tool, args);
  }

  /** The accounts, in order (the first that may run a tool is its default): a grant's server. */
  identity(): string {
    return JSON.stringify(this.access.accounts().map((a) => [a.email.toLowerCase(), a.readOnly]));
  }

  /** The account(s) this call goes out from, as call() resolves them (call-reach.ts). */
  identityFor(tool: string, args: Record<string, unknown>): string {
    try {
      const reach = gmailReach(this.access, tool, args ?? {});
      return reachIdentity(this.access, reach.across ?? [reach.account.email]);
    } catch (err) {
      return unreached(err);
    }
  }

  async stop(): Promise<void> {
    this.off();
    this.listeners.clear();
  }

  /** The approval text once what it names has been looked up (effects.ts). */
  describeEffectAsync(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<string> {
    return this.effects.describeAsync(tool, args, signal);
  }

  /** Ids, labels and drafts checked with a read before the user is asked (precheck.ts). */
  precheck(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<string | null> {
    return gmailPrecheck(this.shared(), tool, args, signal);
  }

  /** The state the checks before a call share with the calls (precheck.ts, call-content.ts). */
  private shared() {
    return {
      access: this.access,
      seen: this.seen,
      drafts: this.drafts,
      labels: this.labels,
      filters: this.filters,
      attachmentSources: this.attachmentSources,
      retry: this.retry,
    };
  }

  /**
   * Certain argument errors (a malformed address, no recipient, no subject) are
   * refused before the user is asked to approve a call that could not run
   * (issue 18.4). Account problems are left to call(), which words them with a code.
   */
  validateArgs(tool: string, args: Record<string, unknown>): string | null {
    try {
      ARG_CHECKS[tool]?.(args);
      return null;
    } catch (err) {
      return err instanceof BadInput ? err.message : null;
    }
  }

  /**
   * gmail_send_draft's version (`message_id`) is the checks' to fill in, and the draft and account
   * name what they read: an approval's edit keeps them (main/approvals/edit-binding.ts), so an
   * edited send goes out as the card showed it or not at all.
   */
  boundArgs(tool: string): BoundArgs | undefined {
    return tool === 'gmail_send_draft'
      ? { bound: ['message_id'], named: ['draft_id', 'account'] }
      : undefined;
  }

  /**
   * A filter that forwards or trashes future mail asks every time (filters.ts). So does a send of
   * a draft the checks could not read (no `message_id` bound by callContent): the taint check saw
   * none of its recipients, so even a tool set to run without asking puts it to the user, whose
   * card reads the draft.
   */
  alwaysAsk(tool: string, args: Record<string, unknown>): string | null {
    if (tool === 'gmail_create_filter') return standingEffect(args);
    if (tool === 'gmail_send_draft' && args.message_id === undefined)
      return 'Airlock could not read the draft before its checks, so it asks.';
    return null;
  }

  describeEffect(tool: string, args: Record<string, unknown>): string {
    return this.effects.describe(tool, args);
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
    ctx: ToolCallContext,
  ): Promise<CallToolResult> {
    try {
      const handler = HANDLERS[tool];
      if (!handler || !this.defs.some((d) => d.name === tool))
        return errorResult(`Gmail has no tool ${tool} for the connected accounts.`);
      args = args ?? {};
      // The same resolution the approval's binding reads (identityFor): the card's account is this one.
      const reach = gmailReach(this.access, tool, args);
      if (reach.across)
        return await acrossAccounts(
          tool,
          reach.across,
          args,
          (email) => this.context(email, ctx.signal),
          reach.connected,
        );
      const { account } = reach;
      const lacking = scopeProblem(account, tool);
      if (lacking) throw new GoogleToolError('OAUTH_SCOPE', lacking);
      return await handler(this.context(account.email, ctx.signal), reach.args);
    } catch (err) {
      if (err instanceof BadInput || err instanceof SpanError) return errorResult(err.message);
      if (err instanceof GoogleToolError) return toolErrorResult(err);
      return errorResult(`${tool} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** What one call in one account works with. */
  private context(account: string, signal: AbortSignal): GmailCallContext {
    return {
      client: new GmailClient(this.access, account, this.retry, signal),
      labels: this.labels,
      seen: this.seen,
      drafts: this.drafts,
      sendAs: this.sendAs,
      attachmentSources: this.attachmentSources,
      pool: () => new AdaptivePool(this.concurrency),
      maxAttachmentBytes: this.maxAttachmentBytes,
      maxDownloadBytes: this.maxDownloadBytes,
      showAccount: this.access.accounts().length > 1,
    };
  }
}

export function createGmailSource(
  access: GoogleAccountAccess,
  options: GmailSourceOptions = {},
): GmailSource {
  return new GmailSource(access, options);
}
