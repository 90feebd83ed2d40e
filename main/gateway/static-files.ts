import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Content types of the files the UI build contains (also used by the Electron app:// protocol). */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** Strict CSP for the UI: only our own scripts, and requests only back to this server. */
export const UI_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The built renderer: dist/renderer next to the compiled main process, or
 * (running from source, as in tests) the repository's dist/renderer.
 */
const here = fileURLToPath(new URL('.', import.meta.url));
export const DEFAULT_UI_DIR = here.includes(`${sep}dist${sep}`)
  ? fileURLToPath(new URL('../../renderer/', import.meta.url))
  : fileURLToPath(new URL('../../dist/renderer/', import.meta.url));

export async function serveStatic(
  root: string,
  urlPath: string,
  res: ServerResponse,
): Promise<boolean> {
  const rel = urlPath === '/' || !extname(urlPath) ? '/index.html' : urlPath;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rel);
  } catch {
    // A malformed escape (`/assets/x%ZZ.js`) names no file: a plain 404, not an error (issue 17, item 8).
    return false;
  }
  if (decoded.includes('\0')) return false;
  const file = normalize(join(root, decoded));
  if (!file.startsWith(normalize(root.endsWith(sep) ? root : root + sep))) return false;
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return false;
  }
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': String(body.length),
    'content-security-policy': UI_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    // A page that opened this one (window.open, a link without noopener) keeps no handle on it:
    // it cannot move the tab to another route or page under the user (red-team wave 4).
    'cross-origin-opener-policy': 'same-origin',
    'cache-control': rel === '/index.html' ? 'no-store' : 'public, max-age=3600',
  });
  res.end(body);
  return true;
}
