import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildArgs, fieldsFor, initialValues } from './schema-form';

/**
 * "Edit & allow" sends what the form shows: a field the user leaves alone goes out as the agent
 * sent it, in the form the tool reads (JSON: what the call is serialised to). Values are the
 * agent's, and need not fit the schema: a remote schema Airlock cannot compile is not validated
 * here (main/tools/schema-validator.ts), and `null` fits `["number", "null"]`, which the form
 * still offers as a number box.
 */

const types = fc.constantFrom<unknown>(
  'string',
  'number',
  'integer',
  'boolean',
  'array',
  'object',
  ['string', 'null'],
  ['number', 'null'],
  ['integer', 'null'],
  ['boolean', 'null'],
);
const prop = fc.oneof(
  types.map((type) => ({ type })),
  fc
    .uniqueArray(fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean()), {
      minLength: 1,
      maxLength: 4,
      selector: (v) => JSON.stringify(v),
    })
    .map((e) => ({ enum: e })),
  fc.boolean().map((d) => ({ type: 'boolean', default: d })),
);
const value = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);
const NAMES = ['a', 'b', 'c', 'd', 'body', 'note', '__proto__'];
const call = fc.record({
  properties: fc.dictionary(fc.constantFrom(...NAMES), prop, { maxKeys: 5 }),
  required: fc.subarray(NAMES),
  // The arguments may name properties of the schema, and others (an open schema).
  args: fc.dictionary(fc.constantFrom(...NAMES, 'extra', 'x-y'), value, { maxKeys: 6 }),
});

/** What the tool receives: the call as JSON (so -0 is 0), keys in any order. */
const sent = (args: Record<string, unknown>) =>
  JSON.stringify(Object.fromEntries(Object.entries(args).sort(([a], [b]) => (a < b ? -1 : 1))));

describe('edit form: an untouched form sends the call the card showed', () => {
  it('round-trips every argument exactly, whatever its type or the schema says', () => {
    fc.assert(
      fc.property(call, ({ properties, required, args }) => {
        const schema = { type: 'object', properties, required };
        const fields = fieldsFor(schema, args)!;
        const built = buildArgs(fields, initialValues(fields, args), args);
        // Required fields the agent left out are the form's to refuse, not to invent.
        const missing = required.some(
          (r) => Object.hasOwn(properties, r) && !Object.hasOwn(args, r),
        );
        if (missing) return true;
        expect(built.ok).toBe(true);
        if (!built.ok) return false;
        expect(sent(built.args)).toBe(sent(args));
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it('shows every argument the call holds as a field, also one the schema does not name', () => {
    fc.assert(
      fc.property(call, ({ properties, required, args }) => {
        const fields = fieldsFor({ type: 'object', properties, required }, args)!;
        const names = new Set(fields.map((f) => f.name));
        expect(Object.keys(args).filter((k) => !names.has(k))).toEqual([]);
      }),
    );
  });

  it('a string holding a line break of any kind gets a multi-line box: a one-line input strips CR and LF from what it shows (HTML value sanitization), so it would show one text and send another', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.constantFrom('a', ' ', '\r', '\n', '\r\n'), { minLength: 1, maxLength: 6 })
          .map((p) => p.join(''))
          .filter((t) => /[\r\n]/.test(t)),
        (text) => {
          const [field] = fieldsFor(
            { type: 'object', properties: { a: { type: 'string' } } },
            { a: text },
          )!;
          expect(field!.multiline).toBe(true);
        },
      ),
    );
  });
});
