import { join } from 'node:path';
import { vi } from 'vitest';
import type { ControlApi, StatusView } from '../common/contract/index.js';
import { CoreEvents } from '../main/platform/events.js';
import { Logger } from '../main/platform/log.js';
import { SettingsStore } from '../main/platform/settings.js';
import { runDesktop, type StartableCore } from '../main/shell/main-process.js';
import type { TraySupport } from '../main/shell/tray-support.js';
import { app, platformRules } from './fake-electron.js';
import { ROOT } from './build.js';
import { tempDir } from './harness.js';

/**
 * The Electron main process from launch to a running shell (main/shell/main-process.ts
 * runDesktop) around a fake core, for the lifecycle and launch tests. The test file mocks
 * 'electron' with test-support/fake-electron.ts.
 */
const STATUS: StatusView = {
  version: '0.1.0',
  running: true,
  mcpUrl: 'http://127.0.0.1:1/mcp',
  dataDir: '/x',
  paused: false,
  agentsConnected: 0,
  pendingApprovals: 0,
  tools: { total: 0, needApproval: 0 },
  sources: [],
};

/** A core with the shape the shell needs; start/stop are controllable. */
export function fakeCore(dataDir = tempDir()) {
  let releaseStop: () => void = () => {};
  const core = {
    control: {
      getStatus: vi.fn(async () => STATUS),
      listPending: vi.fn(async () => []),
      setPaused: vi.fn(),
      decide: vi.fn(),
    } as unknown as ControlApi,
    events: new CoreEvents(),
    settings: new SettingsStore(join(dataDir, 'settings.json')),
    logger: new Logger({ stderr: false }),
    start: vi.fn(async () => ({})),
    stop: vi.fn(() => new Promise<void>((resolve) => (releaseStop = resolve))),
  };
  return { core, dataDir, releaseStop: () => releaseStop() };
}

export async function run(
  opts: {
    argv?: string[];
    platform?: NodeJS.Platform;
    core?: ReturnType<typeof fakeCore>;
    tray?: TraySupport;
    env?: NodeJS.ProcessEnv;
  } = {},
) {
  const f = opts.core ?? fakeCore();
  const createCore = vi.fn((_dir: string) => f.core as unknown as StartableCore);
  // XDG folders inside the test's data directory: a Linux start writes its desktop entry there,
  // never into the home of the machine running the tests.
  const env: NodeJS.ProcessEnv = {
    AIRLOCK_DATA_DIR: f.dataDir,
    HOME: join(f.dataDir, 'home'),
    XDG_DATA_HOME: join(f.dataDir, 'xdg-data'),
    XDG_DATA_DIRS: join(f.dataDir, 'xdg-system'),
    CHROME_DESKTOP: 'airlock.desktop',
    ...opts.env,
  };
  // The same environment and OS for the fake Electron, as a real one shares the process's.
  app.env = env;
  if (opts.platform) platformRules.platform = opts.platform;
  const shell = await runDesktop({
    createCore,
    env,
    argv: opts.argv ?? ['electron', '.'],
    ...(opts.platform ? { platform: opts.platform } : {}),
    traySupport: async () => opts.tray ?? 'yes',
    // The repository's own files (dist/ need not be built): the app icon is read from resources/.
    paths: {
      rendererDir: join(ROOT, 'dist', 'renderer'),
      preload: join(ROOT, 'dist', 'preload', 'preload.cjs'),
      resourcesDir: join(ROOT, 'resources'),
    },
  });
  return { ...f, createCore, shell };
}
