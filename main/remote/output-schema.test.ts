import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream, type FakeTool } from '../../test-support/fake-upstream.js';
import { textOf } from '../../test-support/harness.js';
import { FAST_REMOTE } from '../../test-support/remote-app.js';
import { Logger } from '../platform/log.js';
import { RemoteSource } from './remote-source.js';

/**
 * A remote tool's result against its `outputSchema` (remote-calls.ts, checkedResult): a valid one
 * reaches the agent exactly as before — as the same result from a tool without an output schema
 * does — and a mismatch is refused with a tool error that names the server and says the call ran.
 * Both connection kinds: a stateless server's one shared connection (whose SDK client listed the
 * tools) and a stateful server's session per agent. output-schema-cost.security.test.ts has the
 * hostile schemas.
 */
const cleanup = cleanupAfterEach();

const WEATHER = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    celsius: { type: 'number' },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
  },
  required: ['city', 'celsius'],
  additionalProperties: false,
};

/** Two tools answering the same result for the same arguments; only `shaped` has an output schema. */
function tools(): FakeTool[] {
  const run = async (args: Record<string, unknown>) =>
    args.fail
      ? { isError: true, content: [{ type: 'text' as const, text: 'no such city' }] }
      : {
          content: [{ type: 'text' as const, text: 'Oslo: 4 °C' }],
          ...(args.none ? {} : { structuredContent: args.structured as Record<string, unknown> }),
        };
  return [
    { name: 'shaped', outputSchema: WEATHER, run },
    { name: 'plain', run },
  ];
}

async function connected(stateless: boolean): Promise<RemoteSource> {
  const u = new FakeUpstream({ tools: tools(), stateless });
  await u.start();
  cleanup.push(() => u.stop());
  const s = new RemoteSource(
    { name: 'weather', url: u.url, headers: {} },
    { logger: new Logger({ stderr: false }), version: 'test', timings: FAST_REMOTE },
  );
  cleanup.push(() => s.stop());
  s.start();
  await s.settled();
  expect(s.status()).toEqual({ state: 'ready' });
  return s;
}

const ctx = () => ({ agent: 'a', signal: new AbortController().signal });

describe.each([
  ['a stateless server (one shared connection)', true],
  ['a stateful server (a session per agent)', false],
])('a tool with an output schema, on %s', (_what, stateless) => {
  it('a valid result reaches the agent unchanged: as the same result of a tool without one', async () => {
    const s = await connected(stateless);
    const structured = { city: 'Oslo', celsius: 4, tags: ['cold', 'dry'] };
    const shaped = await s.call('shaped', { structured }, ctx());
    const plain = await s.call('plain', { structured }, ctx());
    expect(shaped.isError).toBeFalsy();
    expect(shaped.structuredContent).toEqual(structured);
    expect(shaped).toEqual(plain);
  });

  it.each([
    [
      'a missing property',
      { city: 'Oslo' },
      "(structuredContent) must have required property 'celsius'",
    ],
    ['a wrong type', { city: 'Oslo', celsius: 'four' }, '/celsius must be number'],
    [
      'an extra property',
      { city: 'Oslo', celsius: 4, wind: 3 },
      '(structuredContent) must NOT have additional properties (wind)',
    ],
    [
      'duplicate items',
      { city: 'Oslo', celsius: 4, tags: ['a', 'a'] },
      '/tags must NOT have duplicate items (items ## 0 and 1 are identical)',
    ],
  ])(
    '%s: refused with a clear tool error naming the server',
    async (_what, structured, problem) => {
      const s = await connected(stateless);
      const r = await s.call('shaped', { structured }, ctx());
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      const [own, note, words, ...more] = (r.content as { text: string }[]).map((c) => c.text);
      expect(own).toBe(
        `The remote server "weather" answered with structured content that does not match its tool's output schema, which Airlock did not pass on. The call itself ran on the server; check before trying again. What does not match follows.`,
      );
      // The problems quote the server's schema and content: marked as its words (untrusted.ts).
      expect(note).toMatch(
        /^\[Airlock: the content below comes from the remote MCP server "weather"/,
      );
      expect(words).toBe(problem);
      expect(more).toEqual([]);
    },
  );

  it("an error result is not checked against the output schema (as the SDK's check did not)", async () => {
    const s = await connected(stateless);
    const r = await s.call('shaped', { fail: true }, ctx());
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('no such city');
  });
});

describe('a result with no structured content at all', () => {
  it("is still refused by the SDK's own check, where its client listed the tool", async () => {
    const s = await connected(true);
    const r = await s.call('shaped', { none: true }, ctx());
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('has an output schema but did not return structured content');
  });
});
