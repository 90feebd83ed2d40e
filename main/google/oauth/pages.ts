/** The small pages the consent callback answers the browser with. No script, no links, no remote assets. */
export interface Page {
  status: number;
  title: string;
  message: string;
  ok: boolean;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderPage(p: Page): string {
  const colour = p.ok ? '#1e7d32' : '#b3261e';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Airlock — ${escape(p.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f1f1f}
h1{font-size:1.4rem;color:${colour}}@media (prefers-color-scheme:dark){body{background:#1f1f1f;color:#eee}}</style>
</head><body><h1>${escape(p.title)}</h1><p>${escape(p.message)}</p></body></html>
`;
}

/**
 * Headers for every answer: nothing cached (the URL held a code), no referrer
 * (the page has no links, but say so), nothing executable.
 */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
} as const;

export const pages = {
  connected: (email: string): Page => ({
    status: 200,
    ok: true,
    title: 'Connected',
    message: `Airlock is now connected to ${email}. You can close this tab.`,
  }),
  wrongState: (): Page => ({
    status: 400,
    ok: false,
    title: 'This sign-in does not match',
    message:
      'This answer does not belong to the sign-in Airlock started (its state is missing or different). Airlock is still waiting: finish the sign-in in the tab Airlock opened, or start again.',
  }),
  alreadyUsed: (): Page => ({
    status: 400,
    ok: false,
    title: 'Already used',
    message: 'Airlock already received an answer for this sign-in. You can close this tab.',
  }),
  failed: (title: string, message: string): Page => ({ status: 400, ok: false, title, message }),
  notFound: (): Page => ({ status: 404, ok: false, title: 'Not found', message: 'Nothing here.' }),
};
