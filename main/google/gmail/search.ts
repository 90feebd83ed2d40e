import type { gmail_v1 } from '@googleapis/gmail';
import { decodeEntities } from '../content/text.js';
import type { CallToolResult } from '../../tools/types.js';
import { int, str, type GmailCallContext } from './context.js';
import { attachmentsOf, header, type Part } from './payload.js';
import { mailItem, provenanceMeta } from './provenance.js';

export const SEARCH_DEFAULT = 20;
export const SEARCH_MAX = 50;

// A partial response (`fields`): headers and the part skeleton without body data,
// enough for sender, subject and attachment names at a fraction of format=full's bytes.
const SKELETON = 'partId,mimeType,filename,headers,body/size';
const FIELDS = `id,threadId,labelIds,snippet,internalDate,payload(${SKELETON},parts(${SKELETON},parts(${SKELETON},parts(${SKELETON}))))`;

export interface SearchHit {
  id: string;
  /** Gmail's internalDate (ms), for merging accounts newest first. */
  at: number;
  /** Set when a list spans accounts. */
  account?: string;
  threadId: string;
  from: string;
  to: string;
  subject: string;
  date: string;
  snippet: string;
  labels: string[];
  attachments: string[];
  /** The headers Gmail returned, for the taint check's description (provenance.ts). */
  payload: Part | undefined;
}

/** One account's page of a list: its hits (labels by name), the next page's token. */
export interface HitPage {
  account: string;
  hits: HitOrError[];
  next?: string;
}

/**
 * One account's search: one messages.list call, then the listed messages'
 * metadata in one batch request (batch.ts; issue 18.5), calls that hit
 * 429/5xx retried in a smaller batch.
 */
export async function searchPage(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
  pageToken = str(args.page_token),
): Promise<HitPage> {
  const query = str(args.query) ?? '';
  const max = int(args.max_results, SEARCH_DEFAULT, 1, SEARCH_MAX);
  const list = await ctx.client.read(`the search "${query}"`, (api, opts) =>
    api.users.messages.list(
      { userId: 'me', q: query, maxResults: max, ...(pageToken ? { pageToken } : {}) },
      opts,
    ),
  );
  const hits = await loadHits(ctx, list.messages ?? []);
  return {
    account: ctx.client.account,
    hits: await withLabelNames(ctx, hits),
    ...(list.nextPageToken ? { next: list.nextPageToken } : {}),
  };
}

/** User label ids (`Label_…`) shown by name: ids are per account, so this is done per page. */
export async function withLabelNames(
  ctx: GmailCallContext,
  hits: HitOrError[],
): Promise<HitOrError[]> {
  const names = await ctx.labels.names(ctx.client, [
    ...new Set(hits.flatMap((h) => ('labels' in h ? h.labels : []))),
  ]);
  return hits.map((h) =>
    'labels' in h ? { ...h, labels: h.labels.map((l) => names.get(l) ?? l) } : h,
  );
}

/** The taint check's description of listed messages (docs/provenance.md). */
export function hitsMeta(hits: HitOrError[]): Record<string, unknown> {
  return provenanceMeta(
    hits.flatMap((h) =>
      'error' in h
        ? []
        : [
            mailItem(
              { id: h.id, payload: h.payload, labelIds: h.labels },
              `${h.subject}\nFrom: ${h.from}\nTo: ${h.to}\n${h.snippet}`,
            ),
          ],
    ),
  );
}

/** gmail_search in one account. */
export async function search(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const page = await searchPage(ctx, args);
  const where = ctx.showAccount ? ` in ${ctx.client.account}` : '';
  const query = str(args.query) ?? '';
  return {
    content: [{ type: 'text', text: renderHits(query, where, page.hits, page.next) }],
    _meta: hitsMeta(page.hits),
  };
}

export type HitOrError = (SearchHit | { id: string; error: string; account?: string }) & {
  /** For drafts: the draft the message belongs to. */
  draftId?: string;
};

/**
 * The listed messages' headers, snippets and attachment names in one batch
 * round trip (issue 18.5), not one GET each; a message that cannot be loaded
 * (deleted between list and get) is listed as such, auth and rate errors throw.
 */
export async function loadHits(
  ctx: GmailCallContext,
  listed: readonly { id?: string | null; threadId?: string | null }[],
): Promise<HitOrError[]> {
  const refs = listed.filter((m) => m.id);
  const fields = new URLSearchParams({ format: 'full', fields: FIELDS }).toString();
  const answers = await ctx.client.batch<gmail_v1.Schema$Message>(
    refs.map((ref) => ({
      path: `gmail/v1/users/me/messages/${encodeURIComponent(ref.id!)}?${fields}`,
      what: `message ${ref.id}`,
    })),
  );
  return answers.map((a, i): HitOrError => {
    const ref = refs[i]!;
    if (a.ok) {
      const m = a.data;
      return toHit(
        ctx,
        m.id ?? ref.id!,
        m.threadId ?? ref.threadId ?? '',
        m.payload ?? undefined,
        m,
      );
    }
    // A message deleted between list and get, or one bad message, should not sink the whole list.
    if (a.error.code === 'GOOGLE_API') return { id: ref.id!, error: a.error.message };
    throw a.error;
  });
}

function toHit(
  ctx: GmailCallContext,
  id: string,
  threadId: string,
  payload: Part | undefined,
  m: { labelIds?: string[] | null; snippet?: string | null; internalDate?: string | null },
): SearchHit {
  const subject = header(payload, 'subject') ?? '';
  const from = header(payload, 'from') ?? '';
  ctx.seen.remember(ctx.client.account, id, { subject, from, threadId });
  return {
    id,
    at: Number(m.internalDate ?? 0),
    threadId,
    from,
    to: header(payload, 'to') ?? '',
    subject,
    date:
      header(payload, 'date') ??
      (m.internalDate ? new Date(Number(m.internalDate)).toUTCString() : ''),
    snippet: decodeEntities(m.snippet ?? ''),
    labels: m.labelIds ?? [],
    attachments: attachmentsOf(payload)
      .filter((a) => !a.inline)
      .map((a) => a.filename),
    payload,
  };
}

/** The hits as the agent reads them; `where` is " in alice@…" or "" (one account, no need to say). */
export function renderHits(
  query: string,
  where: string,
  hits: HitOrError[],
  next: string | undefined,
  failures: string[] = [],
): string {
  const lines = [
    `Gmail search${query ? ` "${query}"` : ''}${where}: ${hits.length === 0 ? 'no messages.' : `${hits.length} message${hits.length === 1 ? '' : 's'}, newest first.`}`,
  ];
  hits.forEach((h, i) => {
    lines.push('');
    if ('error' in h) {
      lines.push(
        `${i + 1}. ${h.account ? `[${h.account}] ` : ''}id ${h.id} — could not be loaded: ${h.error}`,
      );
      return;
    }
    lines.push(`${i + 1}. ${h.account ? `[${h.account}] ` : ''}${h.subject || '(no subject)'}`);
    lines.push(`   From: ${h.from}${h.to ? ` · To: ${h.to}` : ''}`);
    lines.push(`   Date: ${h.date} · id ${h.id} · thread ${h.threadId}`);
    const extra = [
      h.labels.length ? `Labels: ${h.labels.join(', ')}` : '',
      h.attachments.length ? `Attachments: ${h.attachments.join(', ')}` : '',
    ].filter(Boolean);
    if (extra.length) lines.push(`   ${extra.join(' · ')}`);
    if (h.snippet) lines.push(`   ${h.snippet}`);
  });
  for (const f of failures) lines.push('', f);
  if (next)
    lines.push('', `More results: call gmail_search with the same query and page_token="${next}".`);
  return lines.join('\n');
}
