/**
 * `airlock serve`'s handler for a promise that rejected with nobody to handle it. Node's default
 * (since v15) ends the process: every agent's open call dropped, every local server stopped, and
 * server.json and run/control.sock left behind — a server's hostile answer once did exactly that
 * (an approved call's result that `JSON.stringify` could not write, docs/security.md). Such a
 * rejection belongs to one request's handling, and what Airlock keeps is written by guarded
 * SQLite transitions (a request moves state once, or not at all), so the rest is still whole: it
 * is logged as the bug it is, and the gateway keeps serving.
 *
 * Only rejections: an uncaught exception may come from anywhere mid-update (a half-wired socket,
 * a listener half-run), so Node's default — exit — stays for those.
 */
export function keepServingOnRejection(
  log: (msg: string, fields: Record<string, unknown>) => void,
  target: Pick<NodeJS.Process, 'on' | 'off'> = process,
): () => void {
  const handler = (reason: unknown) => {
    // Name and message only, cut short: a server's words may ride in it; never a stack of values.
    const what = reason instanceof Error ? `${reason.name}: ${reason.message}` : typeof reason;
    log('unhandled rejection (kept serving)', { error: what.slice(0, 300) });
  };
  target.on('unhandledRejection', handler);
  return () => target.off('unhandledRejection', handler);
}
