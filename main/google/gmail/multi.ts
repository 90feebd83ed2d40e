import type { CallToolResult } from '../../tools/types.js';
import { decodeAccountPages, encodeAccountPages } from '../spanning.js';
import { str, type GmailCallContext } from './context.js';
import { draftsMeta, draftsPage, renderDrafts } from './drafts.js';
import { hitsMeta, renderHits, searchPage, type HitOrError, type HitPage } from './search.js';

/**
 * Read tools that span accounts (issue 33 item 6): `account` may be a list of
 * connected addresses or "all". Each account is asked in parallel (each its own
 * list + batch, so still two round trips), the results are merged newest first
 * and every item names its account. `max_results` applies to each account, so
 * nothing fetched is dropped, and the next page's token carries each account's
 * own Gmail token. An account that fails is reported beside the others' results.
 * Writes always name one account.
 */
export const MULTI_ACCOUNT_TOOLS = new Set(['gmail_search', 'gmail_list_drafts']);

/** gmail_search / gmail_list_drafts across several accounts. */
export async function acrossAccounts(
  tool: string,
  accounts: string[],
  args: Record<string, unknown>,
  contextFor: (account: string) => GmailCallContext,
  connected: string[],
): Promise<CallToolResult> {
  const pages = decodeAccountPages(str(args.page_token), connected);
  const targets = pages ? Object.keys(pages) : accounts;
  const run = tool === 'gmail_search' ? searchPage : draftsPage;
  const settled = await Promise.allSettled(
    targets.map((a) => run(contextFor(a), { ...args, account: a }, pages?.[a] ?? '')),
  );
  const ok: HitPage[] = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failures = settled.flatMap((s, i) =>
    s.status === 'rejected'
      ? [
          `${targets[i]} could not be read: ${s.reason instanceof Error ? s.reason.message : String(s.reason)}`,
        ]
      : [],
  );
  if (ok.length === 0) {
    const first = settled.find((s) => s.status === 'rejected');
    throw first?.status === 'rejected' ? first.reason : new Error('no account answered');
  }
  const at = (h: HitOrError) => ('at' in h ? h.at : -1);
  const hits = ok
    .flatMap((p) => p.hits.map((h) => ({ ...h, account: p.account })))
    .sort((x, y) => at(y) - at(x));
  const next = encodeAccountPages(
    Object.fromEntries(ok.filter((p) => p.next).map((p) => [p.account, p.next!])),
  );
  const where = ` in ${targets.join(', ')}`;
  const query = str(args.query) ?? '';
  return tool === 'gmail_search'
    ? {
        content: [{ type: 'text', text: renderHits(query, where, hits, next, failures) }],
        _meta: hitsMeta(hits),
      }
    : {
        content: [{ type: 'text', text: renderDrafts(query, where, hits, next, failures) }],
        _meta: draftsMeta(hits),
      };
}
