import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { App } from '../app/app.js';
import { holdBundleFiles } from '../platform/bundle-in-use.js';
import { flushCompileCache } from '../platform/compile-cache.js';
import { AlreadyRunningError } from '../platform/instance.js';
import { defaultDataDir, resolveDataDir } from '../platform/paths.js';
import { EarlyTierUp, type TierUpOptions } from '../platform/tier-up.js';
import { FREEZES_FLAGS, startedWith, startFlags } from '../platform/v8-flags.js';
import type { VaultChoice } from '../platform/vault/select.js';
import { YoungGenerationCap, type YoungGenerationOptions } from '../platform/young-generation.js';
import type { ToolSource } from '../tools/types.js';
import { keepServingOnRejection } from './kept-serving.js';
import { onStopSignals } from './stop-signals.js';

/**
 * `airlock serve`: the headless gateway. Exactly one JSON line goes to
 * stdout when ready; logs go to stderr and <data>/logs.
 */
export async function serve(opts: {
  port?: number;
  dataDir?: string;
  vault?: VaultChoice;
  /** Extra tool sources, passed in by a test's own entry (main/cli.ts `CliInjections`). */
  sources?: ToolSource[];
  /** The young-generation cap's options, or false for none (a bench's entry, `CliInjections`). */
  youngGeneration?: YoungGenerationOptions | false;
  /** V8's earlier tier-up once ready (platform/tier-up.ts): a test's hooks, or false for none. */
  tierUp?: TierUpOptions | false;
}): Promise<number> {
  // Before anything allocates much: a gateway under load keeps whatever young generation it grew.
  // Not under --freeze-flags-after-init, where setting a V8 flag at run time ends the process.
  const youngGeneration =
    opts.youngGeneration === false || startedWith([FREEZES_FLAGS], startFlags())
      ? null
      : new YoungGenerationCap(opts.youngGeneration);
  youngGeneration?.start();
  try {
    return await run(opts);
  } finally {
    youngGeneration?.stop();
  }
}

async function run(opts: Parameters<typeof serve>[0]): Promise<number> {
  const dataDir = resolveDataDir(opts.dataDir);
  const sources = opts.sources ?? [];
  const app = new App({
    dataDir,
    ...(opts.vault ? { vaultChoice: opts.vault } : {}),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    sources,
  });
  let started;
  try {
    started = await app.start();
  } catch (err) {
    if (err instanceof AlreadyRunningError) {
      process.stderr.write(`airlock: ${err.message}\n`);
      return 3;
    }
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      // Loaded only here: cli/context.ts and what it imports are the other commands' (issue 34).
      const { runningServer } = await import('./context.js');
      const why = portInUse(app.settings.get().port, opts.port, dataDir, runningServer);
      process.stderr.write(`airlock: ${why}\n`);
      return 3;
    }
    throw err;
  }
  // The stop handlers go in before the ready line: whoever reads that line may signal at once
  // (scripts/start.mjs forwards Ctrl+C), and a signal with no handler yet kills the process with
  // no clean stop.
  // A second signal while stopping exits at once (stop-signals.ts).
  // One request's stray rejection must not end the gateway for everyone (kept-serving.ts).
  const offRejections = keepServingOnRejection(app.logger);
  let offSignals = () => {};
  const stopped = new Promise<void>((resolveStop) => {
    offSignals = onStopSignals({
      stop: (signal) => {
        app.logger.info('stopping', { signal });
        app.stop().then(resolveStop, (err: unknown) => {
          app.logger.error('stop failed', { error: String(err) });
          resolveStop();
        });
      },
    });
  });
  // A rebuild while this runs keeps the chunks it may still import (bundle-in-use.ts); recorded
  // before the ready line, so that whoever reads that line and then rebuilds finds the record.
  const releaseBundle = holdBundleFiles(import.meta.url);
  process.stdout.write(
    JSON.stringify({
      event: 'ready',
      mcpUrl: started.mcpUrl,
      controlUrl: started.controlUrl,
      url: started.url,
      port: started.port,
      pid: process.pid,
      version: app.version,
      dataDir,
    }) + '\n',
  );
  // What this start compiled goes to Node's compile cache now, not only at a normal exit: a server
  // whose terminal closes (SIGHUP) or that is killed never has one (bin/airlock.js enables it).
  flushCompileCache();
  // After the ready line: what start-up ran is compiled as before, the calls' path sooner.
  const tierUp = opts.tierUp === false ? null : new EarlyTierUp(opts.tierUp);
  tierUp?.start();
  await stopped;
  tierUp?.stop();
  releaseBundle();
  offSignals();
  offRejections();
  return 0;
}

/** EADDRINUSE, said with what to do (issue 19, item 4): which Airlock holds it, if one does. */
export function portInUse(
  settingsPort: number,
  flagPort: number | undefined,
  dataDir: string,
  runningServer: (dataDir: string) => { pid: number; url: string } | null,
): string {
  const port = flagPort ?? settingsPort;
  const others = [defaultDataDir(), process.env.AIRLOCK_DATA_DIR]
    .filter((d): d is string => Boolean(d) && resolve(d!) !== dataDir)
    .map((d) => ({ dir: d, info: existsSync(d) ? runningServer(d) : null }))
    .filter((o) => o.info && new URL(o.info.url).port === String(port));
  const who = others[0]
    ? `Another Airlock (pid ${others[0].info!.pid}, data dir ${others[0].dir}) is listening there.`
    : 'Another program (perhaps another Airlock with a different --data-dir) is listening there.';
  return (
    `Port ${port} on 127.0.0.1 is already in use. ${who} ` +
    'Start this one with --port 0 (any free port; the ready line and "airlock status" tell which) or --port N, ' +
    'or stop the other instance.'
  );
}
