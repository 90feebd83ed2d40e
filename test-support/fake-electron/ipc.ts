import type { FakeWebContents, FakeWebFrame } from './windows.js';
import type { Listener } from './rules.js';

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;

export const ipcMain = {
  handlers: new Map<string, InvokeHandler>(),
  handle(channel: string, handler: InvokeHandler): void {
    if (this.handlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  },
  /** What `ipcRenderer.invoke` from `sender` would get. */
  async invoke(
    channel: string,
    sender: { sender: FakeWebContents; senderFrame: FakeWebFrame | null },
    ...args: unknown[]
  ): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(sender, ...args);
  },
};

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    this.exposed.set(key, api);
  },
};

export const ipcRenderer = {
  invoked: [] as { channel: string; args: unknown[] }[],
  listeners: new Map<string, Set<Listener>>(),
  reply: (_channel: string, ..._args: unknown[]): unknown => ({ ok: true, value: null }),
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push({ channel, args });
    return this.reply(channel, ...args);
  },
  on(channel: string, l: Listener) {
    if (!this.listeners.has(channel)) this.listeners.set(channel, new Set());
    this.listeners.get(channel)!.add(l);
    return this;
  },
  removeListener(channel: string, l: Listener) {
    this.listeners.get(channel)?.delete(l);
    return this;
  },
};
