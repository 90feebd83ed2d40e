import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { airlockVoice, QUOTED } from '../../test-support/airlock-voice.js';
import { labelRelayed, readsAsAirlock } from './relay-label.js';

/**
 * A relayed elicitation's form (MCP 2025-06-18 client/elicitation, `requestedSchema`): the agent's
 * app draws each property's `title` as a field label and its `description` beside it, and each
 * option's `title` of a titled enum (`oneOf: [{const, title}]`). They are the server's words, as
 * its `message` is (relay-label.ts): a field titled "Airlock: paste your control token" is quoted
 * as the server's. Generated titles that speak as Airlock (test-support/airlock-voice.ts) beside
 * plain ones; the form's names, types and values are left as the server wrote them.
 */
const plain = fc.stringMatching(/^[A-Z][a-z]{3,9}( [a-z]{2,8}){0,3}$/);
const words = fc.option(fc.oneof(airlockVoice, plain), { nil: undefined });
const field = fc
  .record({ title: words, description: words, option: words, titled: fc.boolean() })
  .map(({ title, description, option, titled }) => ({
    type: 'string',
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(titled
      ? {
          oneOf: [
            { const: 'a', title: option ?? 'A' },
            { const: 'b', title: 'B' },
          ],
        }
      : {}),
  }));

function formWords(schema: unknown): string[] {
  const props = (schema as { properties: Record<string, Record<string, unknown>> }).properties;
  const out: string[] = [];
  for (const p of Object.values(props)) {
    for (const k of ['title', 'description']) if (typeof p[k] === 'string') out.push(p[k]);
    for (const o of (p.oneOf as { title: string }[] | undefined) ?? []) out.push(o.title);
  }
  return out;
}

describe("a relayed elicitation's form speaks as the server, never as Airlock", () => {
  it("field titles, descriptions and options' titles that start as Airlock are quoted", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), field, { minKeys: 1, maxKeys: 4 }),
        (properties) => {
          const requestedSchema = { type: 'object', properties, required: Object.keys(properties) };
          const sent = structuredClone(requestedSchema);
          const out = labelRelayed({
            method: 'elicitation/create',
            server: 'svc',
            params: { mode: 'form', message: 'Please fill in.', requestedSchema },
          });
          if (!('params' in out)) throw new Error('refused');
          const got = out.params.requestedSchema;
          for (const w of formWords(got)) expect(readsAsAirlock(w), w).toBe(false);
          // Each word is the server's: plain ones as written, the others quoted.
          const before = formWords(sent);
          formWords(got).forEach((w, i) =>
            readsAsAirlock(before[i]!) ? expect(w).toMatch(QUOTED) : expect(w).toBe(before[i]),
          );
          // Names, types, required and values: as the server wrote them.
          const strip = (s: unknown) =>
            JSON.parse(
              JSON.stringify(s, (k, v: unknown) =>
                k === 'title' || k === 'description' ? undefined : v,
              ),
            );
          expect(strip(got)).toEqual(strip(sent));
          expect(requestedSchema).toEqual(sent);
        },
      ),
      { numRuns: 300 },
    );
  });
});
