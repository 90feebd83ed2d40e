import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import {
  CONTROL_METHODS,
  ControlError,
  type ControlApi,
  type ControlErrorCode,
  type ControlMethod,
  type CoreEvent,
} from '../../common/contract/index.js';
import {
  controlChannel,
  EVENT_CHANNEL,
  MAX_CONTROL_ARGS,
  type ControlArgs,
  type ControlValue,
  type IpcResult,
} from '../../common/ipc-contract.js';
import type { Logger } from '../platform/log.js';
import { isVaultError } from '../platform/vault/vault.js';
import { checkControlParams } from '../gateway/control-params.js';
import { isAppUrl } from './protocol.js';

/** What the IPC layer needs to know about our windows. */
export interface OurWindows {
  isOurWebContents(id: number): boolean;
  webContents(): WebContents[];
}

/**
 * The one sender check (security checklist #17): the message comes from
 * the top frame of one of our windows, and that frame shows our app origin.
 * A frame that navigated away, an iframe, a devtools extension page or any
 * other webContents is refused.
 */
export function isTrustedSender(
  event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>,
  windows: OurWindows,
): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  return windows.isOurWebContents(event.sender.id) && isAppUrl(frame.url);
}

export class UntrustedSenderError extends Error {
  override name = 'UntrustedSenderError';
}

function toResult(err: unknown): IpcResult<never> {
  if (err instanceof ControlError) return { ok: false, code: err.code, message: err.message };
  if (isVaultError(err))
    return { ok: false, code: err.code as ControlErrorCode, message: err.message };
  return { ok: false, code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) };
}

/**
 * ControlApi over Electron IPC (docs/architecture.md "ControlApi"):
 * one typed `handle` per method, every one behind the sender check, plus
 * CoreEvents pushed to our windows only.
 */
export class ControlIpc {
  private readonly channels: string[] = [];
  private offEvents: (() => void) | null = null;

  constructor(
    private readonly deps: {
      api: ControlApi;
      events: { subscribe(listener: (event: CoreEvent) => void): () => void };
      windows: OurWindows;
      logger?: Pick<Logger, 'warn'>;
    },
  ) {}

  start(): void {
    const { api } = this.deps;
    for (const method of CONTROL_METHODS) {
      this.handle(method, (...args) =>
        (api[method] as (...a: unknown[]) => Promise<ControlValue<typeof method>>)(...args),
      );
    }
    this.offEvents = this.deps.events.subscribe((event) => this.broadcast(event));
  }

  stop(): void {
    for (const channel of this.channels.splice(0)) ipcMain.removeHandler(channel);
    this.offEvents?.();
    this.offEvents = null;
  }

  /**
   * The typed wrapper every handler goes through: sender check first, then
   * the argument count, then the core; errors come back as data with their
   * ControlErrorCode.
   */
  handle<M extends ControlMethod>(
    method: M,
    fn: (...args: ControlArgs<M>) => Promise<ControlValue<M>>,
  ): void {
    const channel = controlChannel(method);
    ipcMain.handle(
      channel,
      async (event, ...args: unknown[]): Promise<IpcResult<ControlValue<M>>> => {
        if (!isTrustedSender(event, this.deps.windows)) {
          this.deps.logger?.warn('IPC from an untrusted sender refused', {
            method,
            webContents: event.sender.id,
          });
          throw new UntrustedSenderError(`${method}: refused, the sender is not an Airlock window`);
        }
        if (args.length > MAX_CONTROL_ARGS)
          return { ok: false, code: 'INVALID', message: `${method}: too many arguments` };
        try {
          // The same argument checks as the HTTP and socket transports (issue 27, item 8).
          const checked = checkControlParams(method, args);
          return { ok: true, value: await fn(...(checked as ControlArgs<M>)) };
        } catch (err) {
          return toResult(err);
        }
      },
    );
    this.channels.push(channel);
  }

  /** Pushes a core event to every window of ours that still shows our app. */
  broadcast(event: CoreEvent): void {
    for (const wc of this.deps.windows.webContents()) {
      if (!wc.isDestroyed() && isAppUrl(wc.getURL())) wc.send(EVENT_CHANNEL, event);
    }
  }
}
