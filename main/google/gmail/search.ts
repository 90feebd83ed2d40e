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
  threadId: string;
  from: string;
  to: string;
  subject: string;
  date: string;
  snippet: string;
  labels: string[];
  attachments: string[];
}

/**
 * gmail_search: one messages.list call, then the listed messages' metadata
 * in one batch request (batch.ts; issue 18.5), calls that hit 429/5xx retried
 * in a smaller batch.
 */
export async function search(
  ctx: GmailCallContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const query = str(args.query) ?? '';
  const max = int(args.max_results, SEARCH_DEFAULT, 1, SEARCH_MAX);
  const pageToken = str(args.page_token);
  const list = await ctx.client.read(`the search "${query}"`, (api, opts) =>
    api.users.messages.list(
      { userId: 'me', q: query, maxResults: max, ...(pageToken ? { pageToken } : {}) },
      opts,
    ),
  );
  const hits = await loadHits(ctx, list.messages ?? []);
  const labelNames = await ctx.labels.names(ctx.client, [
    ...new Set(hits.flatMap((h) => ('labels' in h ? h.labels : []))),
  ]);
  return {
    content: [
      { type: 'text', text: render(ctx, query, hits, labelNames, list.nextPageToken ?? undefined) },
    ],
    _meta: provenanceMeta(
      hits.flatMap((h) =>
        'error' in h
          ? []
          : [
              mailItem(
                h.id,
                { from: h.from, subject: h.subject },
                `${h.subject}\nFrom: ${h.from}\nTo: ${h.to}\n${h.snippet}`,
              ),
            ],
      ),
    ),
  };
}

export type HitOrError = SearchHit | { id: string; error: string };

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
  };
}

function render(
  ctx: GmailCallContext,
  query: string,
  hits: HitOrError[],
  labelNames: Map<string, string>,
  next: string | undefined,
): string {
  const where = ctx.showAccount ? ` in ${ctx.client.account}` : '';
  const lines = [
    `Gmail search${query ? ` "${query}"` : ''}${where}: ${hits.length === 0 ? 'no messages.' : `${hits.length} message${hits.length === 1 ? '' : 's'}, newest first.`}`,
  ];
  hits.forEach((h, i) => {
    lines.push('');
    if ('error' in h) {
      lines.push(`${i + 1}. id ${h.id} — could not be loaded: ${h.error}`);
      return;
    }
    lines.push(`${i + 1}. ${h.subject || '(no subject)'}`);
    lines.push(`   From: ${h.from}${h.to ? ` · To: ${h.to}` : ''}`);
    lines.push(`   Date: ${h.date} · id ${h.id} · thread ${h.threadId}`);
    const labels = h.labels.map((l) => labelNames.get(l) ?? l);
    const extra = [
      labels.length ? `Labels: ${labels.join(', ')}` : '',
      h.attachments.length ? `Attachments: ${h.attachments.join(', ')}` : '',
    ].filter(Boolean);
    if (extra.length) lines.push(`   ${extra.join(' · ')}`);
    if (h.snippet) lines.push(`   ${h.snippet}`);
  });
  if (next)
    lines.push('', `More results: call gmail_search with the same query and page_token="${next}".`);
  return lines.join('\n');
}
