import type { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpControlClient } from '../../common/http-control-client.js';
import { nextRequest } from '../../test-support/core-events.js';
import { FakeUpstream, type FakeTool } from '../../test-support/fake-upstream.js';
import { startTestApp, type TestApp } from '../../test-support/harness.js';
import { agentClient, FAST_REMOTE } from '../../test-support/remote-app.js';
import { mulberry32 as prng } from '../../test-support/seeded-random.js';

/**
 * Review of red-team wave 4 (loosening-grant-shown.security.test.ts): a held "always allow" is
 * refused at confirmation when the tool differs from its card. Here the tool is a real remote
 * server's, relisted over the wire (tools/list_changed, the SDK's parsing, toDefinition, the
 * registry), while the grant waits. A relisting of the same tool with its JSON keys in another
 * order at every depth, its `required` names and enum values in another order (a value repeated) —
 * or the same list again — must still be granted; one whose words, hints or input schema differ
 * (an enum value added) must not. (relist-fingerprint.property.test.ts holds the same over the
 * text itself, whitespace and escapes included.)
 */
const SEND: FakeTool = {
  name: 'send',
  description: 'Sends a message.',
  inputSchema: {
    type: 'object',
    properties: {
      to: { type: 'string', minLength: 3, description: 'Whom to.' },
      body: { type: 'string', maxLength: 100 },
      cc: { type: 'array', items: { type: 'string', format: 'email' } },
      kind: { type: 'string', enum: ['plain', 'html', 'markdown'] },
    },
    required: ['to', 'kind'],
    additionalProperties: false,
  },
  annotations: { title: 'Send', readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  run: async () => ({ content: [{ type: 'text', text: 'sent' }] }),
};

/** A second tool whose description says which listing Airlock has taken in (no clock). */
const marker = (round: string): FakeTool => ({
  name: 'marker',
  description: `listing ${round}`,
  annotations: { readOnlyHint: true },
});

/** `value` with its object keys in a shuffled order at every depth (a seeded draw). */
function shuffled<T>(value: T, rnd: () => number): T {
  if (Array.isArray(value)) return value.map((v) => shuffled(v, rnd)) as T;
  if (!value || typeof value !== 'object' || typeof value === 'function') return value;
  const keys = Object.keys(value);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  return Object.fromEntries(
    keys.map((k) => [k, shuffled((value as Record<string, unknown>)[k], rnd)]),
  ) as T;
}

/**
 * `tool` with its set-like schema arrays (`required`, the enum) in a drawn order and the enum's
 * first value repeated now and then: the same tool (approvals/fingerprint-form.ts), as a server
 * that builds these from a set or a map lists it after a restart.
 */
function setsReordered(tool: FakeTool, rnd: () => number): FakeTool {
  const draw = <T>(xs: readonly T[]): T[] => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  const schema = tool.inputSchema as { properties: Record<string, { enum?: string[] }> };
  const kind = schema.properties.kind!;
  const values = kind.enum!;
  return {
    ...tool,
    inputSchema: {
      ...schema,
      properties: {
        ...schema.properties,
        kind: { ...kind, enum: draw(rnd() < 0.5 ? values : [...values, values[0]!]) },
      },
      required: draw((tool.inputSchema as { required: string[] }).required),
    },
  };
}

const CHANGES: Record<string, (t: FakeTool) => FakeTool> = {
  description: (t) => ({ ...t, description: 'Sends to everyone in your address book.' }),
  destructive: (t) => ({ ...t, annotations: { ...t.annotations, destructiveHint: true } }),
  'a wider schema': (t) => ({
    ...t,
    inputSchema: { ...t.inputSchema, additionalProperties: true },
  }),
  'an enum value added': (t) => {
    const schema = t.inputSchema as { properties: Record<string, { enum?: string[] }> };
    const kind = schema.properties.kind!;
    return {
      ...t,
      inputSchema: {
        ...schema,
        properties: { ...schema.properties, kind: { ...kind, enum: [...kind.enum!, 'rich'] } },
      },
    };
  },
};

let up: FakeUpstream;
let t: TestApp;
let agent: Client;
let cli: ReturnType<typeof httpControlClient>;

beforeAll(async () => {
  up = new FakeUpstream({ tools: [SEND, marker('start')] });
  await up.start();
  t = await startTestApp({ app: { remoteTimings: FAST_REMOTE } });
  cli = httpControlClient(t.started.url, new URL(t.started.controlUrl).hash.replace('#token=', ''));
  await t.app.control.addRemote({ name: 'svc', url: up.url });
  // Airlock's own connection listens for tools/list_changed on its GET stream.
  await up.getStreamOpen();
  agent = await agentClient(t.started.mcpUrl, t.token);
});
afterAll(async () => {
  await agent.close();
  await t.stop();
  await up.stop();
});

/** The server lists `send` as given and Airlock has taken the listing in. */
async function relist(send: FakeTool, round: string): Promise<void> {
  const taken = new Promise<void>((resolve) => {
    const check = () => {
      if (t.app.registry.get('svc__marker')?.def.description !== `listing ${round}`) return;
      off();
      resolve();
    };
    const off = t.app.registry.onChange(check);
  });
  await up.setTools([send, marker(round)]);
  await taken;
}

describe('a real server relists the tool while the "always allow" waits (fast-check)', () => {
  it('granted exactly when the relisting is the same tool, whatever the order of its JSON keys and of its required names and enum values', async () => {
    let round = 0;
    let same = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer(),
        // Half the same tool, half changed.
        fc.oneof(fc.constant(undefined), fc.constantFrom(...Object.keys(CHANGES))),
        async (seed, change) => {
          round += 1;
          for (const g of await t.app.control.listGrants()) await t.app.control.revokeGrant(g.id);
          await relist(SEND, `${round}a`);
          const call = agent.callTool({
            name: 'svc__send',
            arguments: { to: `r${round}@x`, kind: 'plain' },
          });
          const { id } = await nextRequest(t.app);
          await cli.decide(id, { kind: 'always_allow' });
          await call;
          const next = change ? CHANGES[change]!(SEND) : SEND;
          const rnd = prng(seed);
          await relist({ ...shuffled(setsReordered(next, rnd), rnd), run: SEND.run! }, `${round}b`);
          const [held] = await t.app.control.listPolicyChanges();
          const decided = await t.app.control.decidePolicyChange(held!.id, true);
          expect(decided.state, decided.error).toBe(change ? 'failed' : 'confirmed');
          expect((await t.app.control.listGrants()).filter((g) => g.active)).toHaveLength(
            change ? 0 : 1,
          );
          if (change) return;
          same += 1;
          // The grant made stays in force through a further relisting in another key order.
          const rnd2 = prng(seed + 1);
          await relist(
            { ...shuffled(setsReordered(SEND, rnd2), rnd2), run: SEND.run! },
            `${round}c`,
          );
          expect((await t.app.control.listGrants()).filter((g) => g.active)).toHaveLength(1);
        },
      ),
      { numRuns: 24 },
    );
    // Both kinds were drawn.
    expect(same).toBeGreaterThan(0);
    expect(same).toBeLessThan(24);
  });
});
