import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { protocol } from 'electron';
import { CONTENT_TYPES, UI_CSP } from '../gateway/static-files.js';

/**
 * `app://airlock/…` serves the built renderer (dist/renderer) to our
 * windows. A custom protocol instead of file:// (security checklist #18):
 * pages get a real origin that IPC sender checks can compare against, no
 * file:// privileges, and the same strict CSP the gateway sends (#7).
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'airlock';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** The URL of a renderer route, e.g. appUrl('/popup', { id }) → app://airlock/index.html#/popup?id=… */
export function appUrl(route: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params).toString();
  return `${APP_ORIGIN}/index.html#${route}${query ? `?${query}` : ''}`;
}

/** True for a URL of our own app origin; anything unparsable is not ours. */
export function isAppUrl(url: string | undefined | null): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * Must run before `app` is ready (Electron's rule for privileged schemes).
 * `standard` + `secure` give the scheme an origin and a secure context;
 * nothing else (no bypassCSP, no corsEnabled for others, no service workers).
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

const notFound = () =>
  new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });

/**
 * Answers one app:// request from files under `root`. Exported for tests:
 * it is a plain fetch-style handler, no Electron needed.
 */
export async function serveAppRequest(root: string, request: Request): Promise<Response> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return notFound();
  }
  if (url.host !== APP_HOST) return notFound();
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return new Response('Method not allowed', { status: 405 });
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return notFound();
  }
  // Hash routing means every page is index.html; a path without an extension is a page.
  const rel = path === '/' || !extname(path) ? '/index.html' : path;
  const base = normalize(root.endsWith(sep) ? root : root + sep);
  const file = normalize(join(base, rel));
  if (!file.startsWith(base) || rel.includes('\0')) return notFound();
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return notFound();
  }
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
    status: 200,
    headers: {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': UI_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
  });
}

/** Installs the handler (after ready) on the default session's protocol registry. */
export class AppProtocol {
  constructor(private readonly rendererDir: string) {}

  start(): void {
    protocol.handle(APP_SCHEME, (request) => serveAppRequest(this.rendererDir, request));
  }

  stop(): void {
    protocol.unhandle(APP_SCHEME);
  }
}
