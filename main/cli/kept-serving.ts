import type { Logger } from '../platform/log.js';

/**
 * `airlock serve`'s handler for a promise that rejected with nobody to handle it. Node's default
 * (since v15) ends the process: every agent's open call dropped, every local server stopped, and
 * server.json and run/control.sock left behind — a server's hostile answer once did exactly that
 * (an approved call's result that `JSON.stringify` could not write, docs/security.md). Such a
 * rejection belongs to one request's handling, and what Airlock keeps is written by guarded
 * SQLite transitions (a request moves state once, or not at all), so the rest is still whole: it
 * is logged as the bug it is, and the gateway keeps serving.
 *
 * Keeping on is safe for what is on disk: every file Airlock writes is written whole or not at
 * all (platform/atomic-file.ts, the file vault's temp-then-rename), and every SQLite change is a
 * synchronous better-sqlite3 statement or transaction, rolled back on a throw. A rejection is
 * delivered between tasks, never in the middle of either, so no file is left half-written that
 * the next start could not read — no more than an exit at that moment would leave.
 *
 * Only rejections: an uncaught exception may come from anywhere mid-update (a half-wired socket,
 * a listener half-run), so Node's default — exit — stays for those.
 */
export function keepServingOnRejection(
  logger: Pick<Logger, 'error' | 'redact'>,
  target: Pick<NodeJS.Process, 'on' | 'off'> = process,
): () => void {
  const handler = (reason: unknown) => {
    // Name and message only, never a stack of values; a server's words may ride in it, tokens
    // included: redacted before it is cut short, so no part of a secret survives the cut.
    const what = reason instanceof Error ? `${reason.name}: ${reason.message}` : typeof reason;
    logger.error('unhandled rejection (kept serving)', {
      error: logger.redact(what).slice(0, 300),
    });
  };
  target.on('unhandledRejection', handler);
  return () => target.off('unhandledRejection', handler);
}
