import type {
  JsonSchemaType,
  JsonSchemaValidator,
  JsonSchemaValidatorResult,
  jsonSchemaValidator,
} from '@modelcontextprotocol/server';
import { SchemaValidator } from './schema-validator.js';
import type { JsonSchema } from './types.js';

/**
 * The JSON Schema validators Airlock hands the MCP SDK (its `jsonSchemaValidator` option, on every
 * upstream `Client` and every `Server` Airlock builds), so the SDK's default — its bundled Ajv with
 * native, backtracking RegExp — never evaluates a schema. The schemas it would evaluate come from
 * upstream servers: a tool's `outputSchema` (Client.callTool checks a result's `structuredContent`
 * against it) and an elicitation's `requestedSchema` (Server.elicitInput checks the accepted
 * content). `{pattern: '^(a|aa)*$'}` against 5,000 "a"s and a "!" never finished on the SDK's
 * default; docs/security.md, "Schemas are evaluated with bounded cost".
 */

const VALID = <T>(input: unknown): JsonSchemaValidatorResult<T> => ({
  valid: true,
  data: input as T,
  errorMessage: undefined,
});

/**
 * Checks synchronously with Airlock's SchemaValidator: the configuration the input side uses
 * (RE2JS for `pattern`/`patternProperties`, `uniqueItems` in n log n, at most ten problems
 * listed). A schema it cannot compile — a pattern RE2 cannot express (look-around,
 * back-references) among them — is not checked here, as on the input side: guessing would either
 * pass or refuse wrongly, and a tool or a form must not become unusable over it.
 *
 * Synchronous, so it bounds each keyword's cost but not a whole validation's (recursive `$ref`
 * fan-out): that is what SchemaWorkerPool is for, which is why tool results are not checked here
 * but by their callers, through the pool (CHECKED_BY_CALLER below). This one serves where the
 * SDK must answer synchronously and no hostile schema reaches it today: the `Server`'s
 * `elicitInput` (Airlock relays an upstream's `elicitation/create` as a plain request,
 * gateway/mcp-handlers/relay.ts, which the SDK does not check).
 */
export class BoundedJsonSchemaValidator implements jsonSchemaValidator {
  constructor(private readonly validator = new SchemaValidator()) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    // SchemaValidator caches what it compiles per schema object; nothing is compiled until a check.
    const s = schema as JsonSchema;
    return (input) => {
      const problem = this.validator.validate(s, input, '(value)');
      return problem === null
        ? VALID<T>(input)
        : { valid: false, data: undefined, errorMessage: problem };
    };
  }
}

/**
 * For every upstream client (upstream-client.ts), whose caller checks each tool result itself:
 * every result passes here, and `remote-calls.ts` (and `probe.ts`, for its one call) checks `structuredContent` against the tool's `outputSchema` through the
 * SchemaWorkerPool, inline when cheap and in a worker within a budget otherwise — the same
 * machinery, and the same policy for a schema it cannot compile, as arguments against the input
 * schema. The SDK still sees a validator for a tool with an output schema, so it still refuses a
 * result that has none of the structured content the schema promises.
 */
export const CHECKED_BY_CALLER: jsonSchemaValidator = {
  getValidator: () => VALID,
};
