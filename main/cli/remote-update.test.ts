import { describe, expect, it, vi } from 'vitest';
import { ControlError, type ControlApi, type RemoteView } from '../../common/contract/index.js';
import { updateCommand } from './remote-update.js';

/** `airlock remote update` (issue 27, items 3 and 4): flags become one patch; loosening waits for the window. */
const view = (over: Partial<RemoteView> = {}): RemoteView => ({
  name: 'gh',
  url: 'https://mcp.example.com/mcp',
  enabled: true,
  relay: true,
  sourceId: 'remote:gh',
  headerNames: [],
  hasToken: false,
  state: 'ready',
  toolCount: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

function fakeApi(updateRemote: ControlApi['updateRemote']) {
  return {
    updateRemote: vi.fn(updateRemote),
    listRemotes: vi.fn(async () => [view({ enabled: true })]),
    waitPolicyChange: vi.fn(async (id: string) => ({
      id,
      summary: 'enable server "gh"',
      state: 'confirmed' as const,
      requestedAt: '',
      expiresAt: '',
    })),
  } as unknown as ControlApi & Record<string, ReturnType<typeof vi.fn>>;
}

describe('airlock remote update', () => {
  it('--no-relay and --disable are one patch, applied at once', async () => {
    const api = fakeApi(async (_n, p) => view({ relay: p.relay!, enabled: p.enabled! }));
    const lines: string[] = [];
    expect(
      await updateCommand(api, 'gh', { 'no-relay': true, disable: true }, (l) => lines.push(l)),
    ).toBe(0);
    expect(api.updateRemote).toHaveBeenCalledWith('gh', { enabled: false, relay: false });
    expect(lines).toEqual([
      'Updated "gh": disabled, its requests to agents refused, https://mcp.example.com/mcp.',
    ]);
  });

  it('--enable held for the window: waits for the answer, then shows the server', async () => {
    const api = fakeApi(async () => {
      throw new ControlError(
        'CONFIRM_IN_WINDOW',
        `Waiting for you to confirm in Airlock's window (Tools page): enable server "gh". Change id: 1b2c3d4e-0000-4000-8000-000000000000`,
      );
    });
    const lines: string[] = [];
    const say = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await updateCommand(api, 'gh', { enable: true }, (l) => lines.push(l))).toBe(0);
    } finally {
      say.mockRestore();
    }
    expect(api.waitPolicyChange).toHaveBeenCalledWith('1b2c3d4e-0000-4000-8000-000000000000');
    expect(lines[0]).toMatch(/^Updated "gh": enabled/);
  });

  it('contradicting or missing flags are refused before anything is asked', async () => {
    const api = fakeApi(async () => view());
    const no = () => {};
    await expect(updateCommand(api, 'gh', { enable: true, disable: true }, no)).rejects.toThrow(
      /--enable or --disable, not both/,
    );
    await expect(updateCommand(api, 'gh', { relay: true, 'no-relay': true }, no)).rejects.toThrow(
      /--relay or --no-relay, not both/,
    );
    await expect(updateCommand(api, 'gh', {}, no)).rejects.toThrow(/Nothing to change/);
    expect(api.updateRemote).not.toHaveBeenCalled();
  });
});
