import { describe, expect, it } from 'vitest';
import { nodeFlags } from '../../bin/node-flags.js';

/**
 * Run only by vitest.config.ts's "launch-flags" project: its workers are started with the flags
 * Airlock's launchers use (bin/node-flags.js), and the AsyncLocalStorage specs beside this one in
 * that project hold on that Node. This checks that they really ran there.
 */
describe('the launch-flags project', () => {
  it("runs in a Node started with Airlock's launch flags", () => {
    for (const flag of nodeFlags()) expect(process.execArgv).toContain(flag);
  });
});
