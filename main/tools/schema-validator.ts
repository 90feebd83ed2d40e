import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from './types.js';

// Ajv loads with the first validation, not at start (issue 20: ≈ 5 MB of idle RSS and ≈ 20–40 ms
// of start-up for a library no idle gateway uses). It is CommonJS, so a synchronous require keeps
// validate() synchronous. main/app/lazy-start.test.ts checks it stays out of start-up.
const require = createRequire(import.meta.url);

// This module is also loaded, as is, by the validation worker (schema-worker-pool.ts); under the
// tests that means Node's type stripping on this .ts file: keep it free of relative runtime
// imports and of TypeScript-only runtime syntax (parameter properties, enums).

/** Problems listed in one error text; a huge invalid array must not build a huge message. */
const MAX_ERRORS = 10;

/**
 * `pattern` / `patternProperties` of an untrusted schema run on RE2JS, a
 * linear-time engine (issue 17, item 3: `^(a+)+$` on 30 characters froze the
 * process). A pattern RE2 cannot express (look-around, back-references)
 * throws, which makes the schema uncompilable: such a tool is not validated
 * here at all (the upstream still validates its own arguments), as guessing
 * would either pass or refuse arguments wrongly.
 */
export function linearRegExp(pattern: string, flags: string): { test: (s: string) => boolean } {
  // Loaded with the first schema that has a pattern (≈ 3 MB of idle RSS otherwise, issue 20).
  const { RE2JS } = require('re2js') as typeof import('re2js');
  return RE2JS.compile(
    RE2JS.translateRegExp(pattern),
    flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0,
  );
}
linearRegExp.code = 'linearRegExp';

/**
 * `uniqueItems` in O(n log n): Ajv's own compares every pair of object items
 * (20,000 objects took 9–15 s). Items are compared by canonical JSON, which is
 * JSON Schema's equality (object key order does not matter).
 */
function uniqueItems(this: unknown, schema: unknown, data: unknown): boolean {
  if (schema !== true || !Array.isArray(data)) return true;
  const seen = new Map<string, number>();
  for (let i = 0; i < data.length; i++) {
    const key = canonical(data[i]);
    const j = seen.get(key);
    if (j !== undefined) {
      uniqueItemsCheck.errors = [
        {
          keyword: 'uniqueItems',
          message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
          params: { i, j },
        },
      ];
      return false;
    }
    seen.set(key, i);
  }
  return true;
}
const uniqueItemsCheck = uniqueItems as typeof uniqueItems & {
  errors?: Partial<ErrorObject>[];
};

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Validates tool arguments against the tool's JSON Schema (MCP defaults to
 * 2020-12). Compiled validators are cached per schema object. Schemas from
 * remote servers are not ours: an uncompilable schema skips validation
 * (the upstream still validates) rather than making the tool unusable.
 *
 * This class bounds the cost of each keyword (linear regexes, n log n
 * uniqueItems, capped error lists); SchemaWorkerPool bounds the whole
 * validation in time, off the main thread, for what keywords alone cannot
 * (recursive `$ref` fan-out).
 */
export class SchemaValidator {
  private ajvInstance: Ajv2020 | null = null;
  private readonly cache = new WeakMap<JsonSchema, ValidateFunction | null>();

  private ajv(): Ajv2020 {
    if (this.ajvInstance) return this.ajvInstance;
    const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const ajv = new Ajv({
      strict: false,
      allErrors: true,
      validateFormats: false,
      code: { regExp: linearRegExp },
    });
    ajv.removeKeyword('uniqueItems');
    ajv.addKeyword({
      keyword: 'uniqueItems',
      type: 'array',
      schemaType: 'boolean',
      errors: true,
      validate: uniqueItemsCheck,
    });
    return (this.ajvInstance = ajv);
  }

  /**
   * Returns null when valid, else a readable description of the first problems. `root` names the
   * value itself in a problem found at its top (the call's arguments, a result's structured content).
   */
  validate(schema: JsonSchema, value: unknown, root = '(arguments)'): string | null {
    // The cache's answer here, compile only on a miss (issue 34: every call validates; a schema
    // that did not compile is cached as null, so `undefined` alone means not seen).
    const cached = this.cache.get(schema);
    const fn = cached !== undefined ? cached : this.compile(schema);
    if (!fn || fn(value)) return null;
    const errors = fn.errors ?? [];
    const listed = errors
      .slice(0, MAX_ERRORS)
      .map((e) => `${e.instancePath || root} ${e.message ?? 'is invalid'}${paramsText(e.params)}`);
    if (errors.length > MAX_ERRORS) listed.push(`and ${errors.length - MAX_ERRORS} more problems`);
    return listed.join('; ');
  }

  /** Compiles and caches a schema `validate` has not seen. */
  private compile(schema: JsonSchema): ValidateFunction | null {
    let fn: ValidateFunction | null;
    try {
      // Draft-07 `$schema` URIs are not loaded in the 2020 instance; the keywords we rely on are the same.
      const { $schema: _ignored, ...rest } = schema;
      fn = this.ajv().compile(rest);
    } catch {
      fn = null;
    }
    this.cache.set(schema, fn);
    return fn;
  }
}

function paramsText(params: Record<string, unknown>): string {
  if ('additionalProperty' in params) return ` (${String(params.additionalProperty)})`;
  if ('allowedValues' in params) return ` (${JSON.stringify(params.allowedValues)})`;
  return '';
}
