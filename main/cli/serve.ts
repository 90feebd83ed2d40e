import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { App } from '../app/app.js';
import { AlreadyRunningError } from '../platform/instance.js';
import { resolveDataDir } from '../platform/paths.js';
import type { ToolSource } from '../tools/types.js';

/**
 * `airlock serve`: the headless gateway. Exactly one JSON line goes to
 * stdout when ready; logs go to stderr and <data>/logs.
 */
export async function serve(opts: { port?: number; dataDir?: string }): Promise<number> {
  const dataDir = resolveDataDir(opts.dataDir);
  const sources = await testSources();
  const app = new App({
    dataDir,
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
    throw err;
  }
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
  await new Promise<void>((resolveStop) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.logger.info('stopping', { signal });
      app.stop().then(resolveStop, (err: unknown) => {
        app.logger.error('stop failed', { error: String(err) });
        resolveStop();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  return 0;
}

/**
 * Test hook: AIRLOCK_TEST_SOURCE names a module whose `createSources()`
 * returns extra tool sources (the e2e suite's counting and blocking tools).
 */
async function testSources(): Promise<ToolSource[]> {
  const path = process.env.AIRLOCK_TEST_SOURCE;
  if (!path) return [];
  const mod = (await import(pathToFileURL(resolve(path)).href)) as {
    createSources: () => ToolSource[];
  };
  return mod.createSources();
}
