import { app, BaseWindow } from 'electron';
import type { Logger } from '../platform/log.js';

/** Waits for the core to stop, at most `limitMs`; a core that hangs or fails is logged, not awaited for ever. */
export async function stopWithin(
  core: { stop(): Promise<void>; logger: Pick<Logger, 'warn' | 'error'> },
  limitMs: number,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>(
    (resolve) => (timer = setTimeout(() => resolve('timeout'), limitMs)),
  );
  try {
    const result = await Promise.race([core.stop().then(() => 'stopped' as const), timeout]);
    if (result === 'timeout')
      core.logger.warn('the core did not stop in time; quitting anyway', { limitMs });
  } catch (err) {
    core.logger.error('stopping the core failed', {
      error: err instanceof Error ? err.message : String(err),
    });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Quit waits for the core (issue 9, item 1): the first 'before-quit' is held until `stop` is
 * done, then the quit is repeated and goes through.
 */
export class QuitGate {
  private state: 'running' | 'stopping' | 'stopped' = 'running';

  constructor(private readonly stop: () => Promise<void>) {}

  install(): void {
    app.on('before-quit', (event) => this.onBeforeQuit(event));
  }

  private onBeforeQuit(event: { preventDefault(): void }): void {
    if (this.state === 'stopped') return;
    event.preventDefault();
    if (this.state === 'stopping') return;
    this.state = 'stopping';
    void this.stop().finally(() => {
      this.state = 'stopped';
      app.quit();
    });
  }
}

/**
 * Windows ends a session (log-off, shutdown, restart) without 'before-quit' (docs/api/app.md
 * "Event: 'before-quit'": "On Windows, this event will not be emitted if the app is closed due to
 * a shutdown/restart of the system or a user logout"), so the core would not be stopped (issue 32,
 * item 9). Windows tells windows instead ('query-session-end', then 'session-end':
 * docs/api/base-window.md); a tray app may have none open, so a hidden BaseWindow (no web page,
 * no renderer process) listens and `onEnd` runs at the first of them. Returns the way to stop.
 */
export function watchWindowsSessionEnd(onEnd: () => void): () => void {
  const win = new BaseWindow({
    show: false,
    width: 1,
    height: 1,
    skipTaskbar: true,
    focusable: false,
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  win.on('query-session-end', end);
  win.on('session-end', end);
  return () => {
    if (!win.isDestroyed()) win.destroy();
  };
}
