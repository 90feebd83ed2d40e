import { shell } from 'electron';
import type { Logger } from '../platform/log.js';

export type LinkVerdict = { ok: true; url: string } | { ok: false; reason: string };

/**
 * Whether a URL may leave the app for the system browser. Only http(s)
 * without embedded credentials: file:, javascript:, data:, smb:, custom
 * schemes and the like can run code or open local files through the OS
 * handler (security checklist #15, "Do not use shell.openExternal with
 * untrusted content").
 */
export function checkExternalUrl(raw: unknown): LinkVerdict {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 4096)
    return { ok: false, reason: 'not a URL' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: `scheme ${url.protocol} is not opened` };
  if (url.username || url.password)
    return { ok: false, reason: 'URLs with credentials are not opened' };
  return { ok: true, url: url.href };
}

/** The one place that opens links outside the app. */
export class ExternalLinkGate {
  constructor(private readonly deps: { logger?: Pick<Logger, 'warn'> } = {}) {}

  /** Opens the URL in the system browser if allowed; returns whether it did. */
  open(raw: unknown): boolean {
    const verdict = checkExternalUrl(raw);
    if (!verdict.ok) {
      // The URL itself is not logged: it came from page content and may carry anything.
      this.deps.logger?.warn('external link refused', { reason: verdict.reason });
      return false;
    }
    void shell.openExternal(verdict.url).catch((err: unknown) => {
      this.deps.logger?.warn('opening a link failed', {
        error: err instanceof Error ? err.message : String(err),
      });
    });
    return true;
  }
}
