import { afterEach } from 'vitest';
import type { ToolSource } from '../main/tools/types.js';
import { connectClient, startTestApp, type TestApp } from './harness.js';

/** A fake-Google testbed (e2e/fake-google: gmailTestbed, calendarTestbed): a source and its fake. */
interface Testbed {
  source: ToolSource;
  stop: () => Promise<void>;
}

/**
 * A testbed and a real App (gateway, SQLite, approvals) serving its source to a real MCP client,
 * made in each test and stopped after it: the App first, then the testbed. Call it at a test
 * file's top level, where it registers its afterEach.
 */
export function testbedAppPerTest<B extends Testbed>(makeBed: () => Promise<B>) {
  let app: TestApp | undefined;
  let bed: B | undefined;
  afterEach(async () => {
    await app?.stop();
    await bed?.stop();
    app = bed = undefined;
  });
  /** This test's testbed, made on first use (seed its fake before start() where that matters). */
  const testbed = async (): Promise<B> => (bed ??= await makeBed());
  /** Starts this test's App on the testbed's source; its client is the agent "test". */
  const start = async (
    opts: Omit<NonNullable<Parameters<typeof startTestApp>[0]>, 'sources'> = {},
  ) => {
    const b = await testbed();
    app = await startTestApp({ ...opts, sources: [b.source] });
    const client = await connectClient(app.started.mcpUrl, app.token);
    return { bed: b, app, a: app.app, client };
  };
  return { testbed, start };
}
