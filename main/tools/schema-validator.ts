import { createRequire } from 'node:module';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from './types.js';

// Ajv loads with the first validation, not at start (issue 20: ≈ 5 MB of idle RSS and ≈ 20–40 ms
// of start-up for a library no idle gateway uses). It is CommonJS, so a synchronous require keeps
// validate() synchronous. main/app/lazy-start.test.ts checks it stays out of start-up.
const require = createRequire(import.meta.url);

/**
 * Validates tool arguments against the tool's JSON Schema (MCP defaults to
 * 2020-12). Compiled validators are cached per schema object. Schemas from
 * remote servers are not ours: an uncompilable schema skips validation
 * (the upstream still validates) rather than making the tool unusable.
 */
export class SchemaValidator {
  private ajvInstance: Ajv2020 | null = null;
  private readonly cache = new WeakMap<JsonSchema, ValidateFunction | null>();

  /** Returns null when valid, else a readable description of every problem. */
  validate(schema: JsonSchema, value: unknown): string | null {
    const fn = this.compile(schema);
    if (!fn || fn(value)) return null;
    return (fn.errors ?? [])
      .map(
        (e) =>
          `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}${paramsText(e.params)}`,
      )
      .join('; ');
  }

  private compile(schema: JsonSchema): ValidateFunction | null {
    const cached = this.cache.get(schema);
    if (cached !== undefined) return cached;
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

  private ajv(): Ajv2020 {
    if (!this.ajvInstance) {
      const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
      this.ajvInstance = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    }
    return this.ajvInstance;
  }
}

function paramsText(params: Record<string, unknown>): string {
  if ('additionalProperty' in params) return ` (${String(params.additionalProperty)})`;
  if ('allowedValues' in params) return ` (${JSON.stringify(params.allowedValues)})`;
  return '';
}
