import { afterEach, beforeEach, expect, vi } from 'vitest';
import { ApprovalDialog } from '../main/shell/approval-dialog.js';
import { ApprovalNotifier } from '../main/shell/approval-notifier.js';
import { nextRequest } from './core-events.js';
import { dialog, platformRules, resetFakeElectron } from './fake-electron.js';
import { connectClient, CountingSource, startTestApp } from './harness.js';

/**
 * Native approvals against a real core (main/shell/approval-notifier*.test.ts):
 * a real App (gateway, SQLite, approval engine) with MemoryVault and
 * CountingSource, a real MCP client as the agent, and the notifier under
 * test. The test file mocks 'electron' with test-support/fake-electron.ts.
 */
export async function startNotifierWorld(
  settings: Record<string, unknown> = {},
  /** The OS the dialog behaves for, and a window of ours on screen it may use as a parent. */
  shell: Pick<ConstructorParameters<typeof ApprovalDialog>[0], 'platform' | 'parentWindow'> = {},
) {
  const source = new CountingSource();
  const t = await startTestApp({ sources: [source], settings });
  const app = t.app;
  const client = await connectClient(t.started.mcpUrl, t.token);
  const openApproval = vi.fn();
  const world = {
    source,
    app,
    client,
    openApproval,
    /** The notifier under test; a test may stop it and put a new one here (a restart). */
    notifier: new ApprovalNotifier({
      control: app.control,
      events: app.events,
      approvalStyle: () => app.settings.get().shell.approvalStyle,
      openApproval,
      dialog: new ApprovalDialog({
        control: app.control,
        openApproval,
        showInWindow: (id) => openApproval(id, false),
        ...shell,
      }),
    }),
    /** An agent's call of count_send; resolves once its approval was requested. */
    async request(args: Record<string, unknown> = { to: 'bob@example.com' }) {
      const requested = nextRequest(app);
      const call = client.callTool({ name: 'count_send', arguments: args });
      const approval = await requested;
      return { call, approval };
    },
    async stop() {
      world.notifier.stop();
      await t.stop();
    },
  };
  await world.notifier.start();
  return world;
}

export type NotifierWorld = Awaited<ReturnType<typeof startNotifierWorld>>;

/**
 * The hooks approval-notifier*.test.ts share, registered where it is called (a test file's top
 * level): before each test a reset fake Electron on macOS, where notifications have action
 * buttons (Linux shows none); after it, no message box that stopped the main process (macOS
 * parentless boxes: issue 32, item 2), and the world stopped. Returns the tests' setup.
 */
export function notifierWorldPerTest() {
  let w: NotifierWorld | undefined;
  beforeEach(async () => {
    await resetFakeElectron();
    platformRules.platform = 'darwin';
  });
  afterEach(async () => {
    expect(dialog.shown.filter((b) => b.blocking)).toEqual([]);
    await w?.stop();
    w = undefined;
  });
  return async (
    settings: Record<string, unknown> = {},
    shell?: Parameters<typeof startNotifierWorld>[1],
  ): Promise<NotifierWorld> => (w = await startNotifierWorld(settings, shell));
}
