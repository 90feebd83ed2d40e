import type { RemoteControl, RemoteControlDeps } from './remote-control.js';
import type { RemoteManager, RemoteManagerDeps } from './remote-manager.js';

/**
 * Remote MCP servers, loaded on first need. The MCP client SDK and the OAuth
 * code cost ~25–40 ms and ~5 MB at start-up; a profile without remote
 * servers never pays for them until the user opens the Servers page or adds
 * one. A profile with servers loads them during start, so their tools are
 * ready for the first tools/list.
 */
export class RemoteLoader {
  private loading: Promise<{ manager: RemoteManager; control: RemoteControl }> | null = null;
  manager: RemoteManager | null = null;
  /**
   * Set by stop() and never cleared: a control call still in flight when Airlock stops (a request
   * the gateway's grace let finish, a window's IPC call) would otherwise load a fresh manager after
   * the stop and start every server again, processes nobody stops. The manager's own flag
   * (remote-manager.ts) covers only the manager that was stopped.
   */
  private stopped = false;

  constructor(
    private readonly managerDeps: RemoteManagerDeps,
    private readonly controlDeps: Omit<RemoteControlDeps, 'manager'>,
  ) {}

  load(): Promise<{ manager: RemoteManager; control: RemoteControl }> {
    if (this.stopped && !this.loading)
      return Promise.reject(
        new Error('Airlock is stopping: remote servers are not started again.'),
      );
    this.loading ??= (async () => {
      const [{ RemoteManager }, { RemoteControl }] = await Promise.all([
        import('./remote-manager.js'),
        import('./remote-control.js'),
      ]);
      const manager = new RemoteManager(this.managerDeps);
      await manager.start();
      this.manager = manager;
      return { manager, control: new RemoteControl({ ...this.controlDeps, manager }) };
    })();
    return this.loading;
  }

  /** A RemoteControl whose every method loads the remote module first. */
  control(): RemoteControl {
    return new Proxy({} as RemoteControl, {
      get:
        (_target, method: string) =>
        async (...args: unknown[]) => {
          const { control } = await this.load();
          return (
            control[method as keyof RemoteControl] as (...a: unknown[]) => Promise<unknown>
          ).apply(control, args);
        },
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (!this.loading) return;
    const { manager } = await this.loading;
    await manager.stop();
    this.loading = null;
    this.manager = null;
  }
}
