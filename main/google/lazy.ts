/**
 * Libraries the Google layer loads on first use, not at start (issue 2:
 * `airlock serve` ready in ≤ 500 ms and ≤ 100 MB idle). The big ones cost
 * 15–25 MB and 30–90 ms each to import (together ~20 MB of idle RSS once
 * shared parts are counted), and none is needed until a Google account is
 * connected or a tool is called. Everything that only these libraries
 * need sits behind one accessor here; the rest of main/google imports their
 * types with `import type` only. Tool definitions, approval texts and argument
 * checks stay synchronous and never reach for these.
 *
 * postal-mime (the address parser behind gmail_send's synchronous approval
 * text) and luxon (Calendar's synchronous validateArgs/describeEffect) are
 * imported statically by the Gmail and Calendar modules, which themselves load
 * only once a Google account is connected (lazy-source.ts, issue 34); postal-mime
 * still loads at start for main/provenance. main/google/lazy-load.test.ts checks
 * the list below against a real start.
 */

/** A cached dynamic import: the first call loads, later calls share the answer; a failed load is retried next time. */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}

export const libs = {
  /** @googleapis/gmail: the typed Gmail client. */
  gmail: lazy(() => import('@googleapis/gmail')),
  /** @googleapis/calendar: the typed Calendar client. */
  calendar: lazy(() => import('@googleapis/calendar')),
  /** google-auth-library, wrapped: consent URL, code exchange, refresh, revocation. */
  oauthClient: lazy(() => import('./oauth/oauth2-client.js')),
  /** nodemailer's MailComposer: outgoing MIME. */
  mailComposer: lazy(() => import('nodemailer/lib/mail-composer/index.js')),
  /** turndown + GFM plugin, wrapped: HTML mail and documents → markdown. */
  markdown: lazy(() => import('./content/html-to-markdown.js')),
  /** iconv-lite, wrapped: legacy charsets → text. */
  charset: lazy(() => import('./content/charset.js')),
  /** mammoth: DOCX attachments. */
  mammoth: lazy(() => import('mammoth')),
  /** unpdf (pdf.js): PDF attachments. */
  unpdf: lazy(() => import('unpdf')),
  /** meros: multipart/mixed answers of Gmail's batch endpoint. */
  meros: lazy(() => import('meros/browser')),
};
