import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { callContentOf } from '../../tools/call-content.js';
import type { ToolEntry } from '../../tools/registry.js';
import type { ToolSource } from '../../tools/types.js';

/**
 * A filter's reach does not depend on the read before the check answering (ToolSource.argsReach,
 * main/tools/call-content.ts): when callContent gives nothing — it failed, or the call was
 * cancelled before it was asked — the check still reads the filter as createFilter sends it, its
 * forward_to a forward of the user's mail, not the arguments as written (where a forward to a
 * party of the stranger's mail was let off as a reply, and every criterion was a destination).
 */
let t: Awaited<ReturnType<typeof gmailTestbed>>;
beforeAll(async () => {
  t = await gmailTestbed();
});
afterAll(() => t.stop());

const ARGS = {
  from: 'ops@vendorpay-hub.test',
  subject: 'invoice',
  forward_to: 'AP Desk <AP-Team@vendorpay-hub.test>',
};
const READ = {
  args: { forward_to: 'AP-Team@vendorpay-hub.test' },
  forwards: true,
  selects: { from: 'ops@vendorpay-hub.test', subject: 'invoice' },
};

/** gmail_create_filter on the real source, whose read before the check fails. */
function entry(): ToolEntry {
  const def = t.source.tools().find((d) => d.name === 'gmail_create_filter')!;
  const source: ToolSource = Object.create(t.source as ToolSource);
  source.callContent = () => Promise.reject(new Error('Gmail did not answer'));
  return { name: def.name, key: `gmail/${def.name}`, source, def };
}

describe("a filter's reach when the read before the check gives nothing", () => {
  it('is read from its arguments by parseFilter: forward_to alone, a forward', async () => {
    const signal = new AbortController().signal;
    expect(await t.source.callContent('gmail_create_filter', ARGS, signal)).toEqual(READ);
    expect(await callContentOf(entry(), ARGS, signal)).toEqual(READ);
  });

  it('also for a call cancelled before the read was asked', async () => {
    const gone = new AbortController();
    gone.abort();
    expect(await callContentOf(entry(), ARGS, gone.signal)).toEqual(READ);
  });
});
