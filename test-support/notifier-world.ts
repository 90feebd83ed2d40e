import { vi } from 'vitest';
import type { ApprovalView, CoreEvent } from '../common/contract/index.js';
import { ApprovalDialog } from '../main/shell/approval-dialog.js';
import { ApprovalNotifier } from '../main/shell/approval-notifier.js';
import { connectClient, CountingSource, startTestApp, type TestApp } from './harness.js';

/**
 * Native approvals against a real core (main/shell/approval-notifier*.test.ts):
 * a real App (gateway, SQLite, approval engine) with MemoryVault and
 * CountingSource, a real MCP client as the agent, and the notifier under
 * test. The test file mocks 'electron' with test-support/fake-electron.ts.
 */
export function nextEvent(
  app: TestApp['app'],
  match: (e: CoreEvent) => boolean,
): Promise<CoreEvent> {
  return new Promise((resolve) => {
    const off = app.events.subscribe((e) => {
      if (match(e)) {
        off();
        resolve(e);
      }
    });
  });
}

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
      const requested = nextEvent(app, (e) => e.type === 'approval.requested');
      const call = client.callTool({ name: 'count_send', arguments: args });
      const approval = ((await requested) as { approval: ApprovalView }).approval;
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
