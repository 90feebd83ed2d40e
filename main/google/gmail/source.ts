import {
  errorResult,
  type CallToolResult,
  type GrantShape,
  type SourceState,
  type ToolCallContext,
  type ToolDefinition,
  type ToolSource,
} from '../../tools/types.js';
import {
  GoogleToolError,
  type GoogleAccountAccess,
  type GoogleAccountInfo,
} from '../account-access.js';
import { readAttachment } from './attachment.js';
import { SeenMessages } from './cache.js';
import { DEFAULT_RETRY, GmailClient, type RetryPolicy } from './client.js';
import { BadInput } from './compose.js';
import { str, strings, type GmailCallContext } from './context.js';
import { header } from './payload.js';
import { toolErrorResult } from '../errors.js';
import { LabelDirectory } from './labels.js';
import { archive, describeModify, listLabels, modifyLabels, trash } from './modify.js';
import { AdaptivePool } from './pool.js';
import { readMessage, readThread } from './read.js';
import { search } from './search.js';
import { createDraft, describeCompose, parseCompose, sendMessage } from './send.js';
import { SendAsNames } from './send-as.js';
import { toolDefinitions, WRITE_TOOLS } from './tools.js';
import { gmailGrantShape } from './grant-shape.js';

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
}

type Handler = (ctx: GmailCallContext, args: Record<string, unknown>) => Promise<CallToolResult>;

const HANDLERS: Record<string, Handler> = {
  gmail_search: search,
  gmail_read: readMessage,
  gmail_read_thread: readThread,
  gmail_read_attachment: readAttachment,
  gmail_list_labels: listLabels,
  gmail_create_draft: createDraft,
  gmail_send: sendMessage,
  gmail_modify_labels: modifyLabels,
  gmail_archive: archive,
  gmail_trash: trash,
};

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
  private readonly sendAs = new SendAsNames();
  private readonly retry: RetryPolicy;
  private readonly concurrency: number;
  private readonly maxAttachmentBytes: number;

  constructor(
    private readonly access: GoogleAccountAccess,
    options: GmailSourceOptions = {},
  ) {
    this.id = options.id ?? 'gmail';
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.concurrency = options.concurrency ?? 25;
    this.maxAttachmentBytes = options.maxAttachmentBytes ?? 15 * 1024 * 1024;
    this.defs = toolDefinitions(access.accounts());
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

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  grantShape(tool: string): GrantShape | undefined {
    return gmailGrantShape(tool);
  }

  /** The accounts, in order (the first that may run a tool is its default): a grant's server. */
  identity(): string {
    return JSON.stringify(this.access.accounts().map((a) => [a.email.toLowerCase(), a.readOnly]));
  }

  async stop(): Promise<void> {
    this.off();
    this.listeners.clear();
  }

  /** The account a call runs as: the one named, else the first that may run this tool. */
  private pickAccount(tool: string, args: Record<string, unknown>): GoogleAccountInfo {
    const accounts = this.access.accounts();
    const eligible = WRITE_TOOLS.has(tool) ? accounts.filter((a) => !a.readOnly) : accounts;
    const wanted = str(args.account)?.trim().toLowerCase();
    const found = wanted ? eligible.find((a) => a.email.toLowerCase() === wanted) : eligible[0];
    if (found) return found;
    if (wanted && accounts.some((a) => a.email.toLowerCase() === wanted)) {
      throw new GoogleToolError(
        'OAUTH_SCOPE',
        `${args.account} is connected read-only: Airlock cannot send or change mail in it.`,
      );
    }
    const list = accounts.map((a) => a.email).join(', ');
    throw new GoogleToolError(
      'NO_ACCOUNT',
      wanted
        ? `No connected Google account ${args.account}. Connected: ${list || 'none'}.`
        : "No Google account is connected to Airlock. The user can connect one in Airlock's settings.",
    );
  }

  /**
   * Looks up the messages an approval is about (the one being replied to, the
   * ones being trashed or relabelled) when Airlock has not seen them yet, so
   * the user sees their real subjects. Best effort: on any failure the
   * synchronous text stands.
   */
  async describeEffectAsync(tool: string, args: Record<string, unknown>): Promise<string> {
    try {
      const account = this.pickAccount(tool, args).email;
      const ids =
        tool === 'gmail_send' || tool === 'gmail_create_draft'
          ? [str(args.reply_to_message_id)]
          : strings(args.message_ids).slice(0, 10);
      const missing = ids
        .map((id) => id?.trim())
        .filter((id): id is string => !!id && !this.seen.get(account, id));
      const client = new GmailClient(this.access, account, this.retry, AbortSignal.timeout(2500));
      if (tool === 'gmail_send' || tool === 'gmail_create_draft')
        await this.sendAs.displayName(client); // the approval shows From: as it will go out
      await Promise.all(
        missing.map(async (id) => {
          const m = await client.read(`message ${id}`, (api, opts) =>
            api.users.messages.get(
              { userId: 'me', id, format: 'metadata', metadataHeaders: ['Subject', 'From'] },
              opts,
            ),
          );
          this.seen.remember(account, id, {
            subject: header(m.payload ?? undefined, 'subject') ?? '',
            from: header(m.payload ?? undefined, 'from') ?? '',
            threadId: m.threadId ?? '',
          });
        }),
      );
    } catch {
      // The approval still shows the message; only the looked-up subject is missing.
    }
    return this.describeEffect(tool, args);
  }

  /**
   * Certain argument errors (a malformed address, no recipient, no subject) are
   * refused before the user is asked to approve a call that could not run
   * (issue 18.4). Account problems are left to call(), which words them with a code.
   */
  validateArgs(tool: string, args: Record<string, unknown>): string | null {
    if (tool !== 'gmail_send' && tool !== 'gmail_create_draft') return null;
    try {
      parseCompose(args);
      return null;
    } catch (err) {
      return err instanceof BadInput ? err.message : null;
    }
  }

  describeEffect(tool: string, args: Record<string, unknown>): string {
    let account: string;
    try {
      account = this.pickAccount(tool, args).email;
    } catch (err) {
      return `${tool} — this call will fail: ${(err as Error).message}`;
    }
    const name = this.sendAs.known(account);
    if (tool === 'gmail_send') return describeCompose('send', account, args, this.seen, name);
    if (tool === 'gmail_create_draft')
      return describeCompose('draft', account, args, this.seen, name);
    if (tool === 'gmail_modify_labels' || tool === 'gmail_archive' || tool === 'gmail_trash')
      return describeModify(tool, account, args, this.seen);
    const def = this.defs.find((d) => d.name === tool);
    return `${def?.title ?? tool} in ${account}`;
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
      const account = this.pickAccount(tool, args ?? {});
      const callCtx: GmailCallContext = {
        client: new GmailClient(this.access, account.email, this.retry, ctx.signal),
        labels: this.labels,
        seen: this.seen,
        sendAs: this.sendAs,
        pool: () => new AdaptivePool(this.concurrency),
        maxAttachmentBytes: this.maxAttachmentBytes,
        showAccount: this.access.accounts().length > 1,
      };
      return await handler(callCtx, args ?? {});
    } catch (err) {
      if (err instanceof BadInput) return errorResult(err.message);
      if (err instanceof GoogleToolError) return toolErrorResult(err);
      return errorResult(`${tool} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

export function createGmailSource(
  access: GoogleAccountAccess,
  options: GmailSourceOptions = {},
): GmailSource {
  return new GmailSource(access, options);
}
