import fc from 'fast-check';
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import type { ApprovalView, SourceStatusView, StatusView } from '../../common/contract/index.js';
import { notificationText } from './approval-text.js';
import { buildTrayMenu, type TrayActions } from './tray-menu.js';

/**
 * The tray's labels and a notification's title are cut to a length (tray-menu.ts, approval-text.ts)
 * from text an agent and a server wrote: an approval's effect, a server's error. Cut by UTF-16
 * unit, a label could end in half an emoji — a lone surrogate, which the menu shows as U+FFFD.
 * Generated over full Unicode (fast-check's `binary` unit: every code point), no label is cut
 * inside a character.
 */

const LONE_SURROGATE = /[\ud800-\udfff]/u;
const wild = fc.oneof(
  fc.string({ unit: 'binary', minLength: 40, maxLength: 160 }),
  fc
    .array(fc.constantFrom('😀', '👩‍👧', 'e\u0301', 'a', '🇫🇷'), { minLength: 30, maxLength: 90 })
    .map((p) => p.join('')),
);

const status = (sources: SourceStatusView[]): StatusView => ({
  version: '0.1.0',
  running: true,
  mcpUrl: 'http://127.0.0.1:47821/mcp',
  dataDir: '/tmp/x',
  paused: false,
  agentsConnected: 1,
  pendingApprovals: 1,
  tools: { total: 3, needApproval: 1 },
  sources,
});

const approval = (effect: string, agent: string): ApprovalView => ({
  id: 'a1',
  agent,
  tool: 'gmail_send',
  effect,
  arguments: {},
  inputSchema: {},
  state: 'pending',
  createdAt: '2026-01-01T00:00:00Z',
  expiresAt: '2026-01-01T00:10:00Z',
});

const actions = new Proxy({}, { get: () => () => undefined }) as TrayActions;

function labels(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((i) => [
    ...(i.label !== undefined ? [i.label] : []),
    ...(Array.isArray(i.submenu) ? labels(i.submenu) : []),
  ]);
}

describe('property: tray labels and notification titles are never cut inside a character', () => {
  it('an approval’s effect and a server’s error detail, full Unicode', () => {
    fc.assert(
      fc.property(wild, wild, fc.string({ maxLength: 3 }), (effect, detail, pad) => {
        const menu = buildTrayMenu(
          {
            status: status([
              {
                id: 'r1',
                kind: 'remote',
                label: 'srv',
                state: 'error',
                detail: pad + detail,
              } as SourceStatusView,
            ]),
            pending: [approval(pad + effect, 'Claude')],
            openAtLogin: false,
            approvalStyle: 'window',
          },
          actions,
        );
        for (const l of labels(menu)) expect(l).not.toMatch(LONE_SURROGATE);
        const n = notificationText(approval(`${pad}${effect}`, 'Claude'));
        expect(n.title).not.toMatch(LONE_SURROGATE);
        expect(n.body).not.toMatch(LONE_SURROGATE);
      }),
      { numRuns: 500 },
    );
  });
});
