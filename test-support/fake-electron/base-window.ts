import { EventEmitter } from 'node:events';
import { assertReady } from './app.js';
import { preventable } from './rules.js';
import { BrowserWindow } from './windows.js';

/** A window without a web page (Electron 30+, docs/api/base-window.md); BrowserWindow's events too. */
export class BaseWindow extends EventEmitter {
  static instances: BaseWindow[] = [];
  destroyed = false;
  visible: boolean;
  constructor(readonly options: Record<string, unknown> = {}) {
    super();
    assertReady('BaseWindow');
    this.visible = options.show !== false;
    BaseWindow.instances.push(this);
  }
  isVisible(): boolean {
    return this.visible;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('closed');
  }
}

/**
 * Windows ends the session (log-off, shutdown, restart): every window gets 'query-session-end',
 * then 'session-end' (docs/api/base-window.md), and the app gets no 'before-quit' (docs/api/app.md:
 * "On Windows, this event will not be emitted if the app is closed due to a shutdown/restart of
 * the system or a user logout"). The process then ends.
 */
export function endWindowsSession(reasons: string[] = ['logoff']): void {
  const open = [...BaseWindow.instances, ...BrowserWindow.instances].filter((w) => !w.destroyed);
  for (const event of ['query-session-end', 'session-end'])
    for (const w of open) w.emit(event, preventable({ reasons }));
}
