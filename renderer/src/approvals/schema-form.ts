/**
 * Builds a simple form from a tool's JSON Schema (issue 3 item 3, issue 8
 * "a form built from the tool's schema"): string, number, integer, boolean
 * and enum properties get their own inputs; anything else is edited as JSON.
 * The server validates the result against the full schema; this only turns
 * inputs back into typed values and catches what a form can know.
 */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export interface Field {
  name: string;
  kind: FieldKind;
  required: boolean;
  label: string;
  description?: string;
  options?: unknown[];
  multiline?: boolean;
}

export type FieldValue = string | boolean;
export type FormValues = Record<string, FieldValue>;

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);

function kindOf(prop: Schema): FieldKind {
  if (Array.isArray(prop.enum) && prop.enum.length > 0) return 'enum';
  const types = Array.isArray(prop.type) ? prop.type.filter((t) => t !== 'null') : [prop.type];
  const type = types.length === 1 ? types[0] : undefined;
  return type === 'string' || type === 'number' || type === 'integer' || type === 'boolean'
    ? type
    : 'json';
}

const LONG_TEXT = /body|text|content|description|message|html|markdown|notes?$/i;

/** Fields for an object schema with properties, or null when only raw JSON makes sense. */
export function fieldsFor(schema: Schema, args: Record<string, unknown>): Field[] | null {
  if (!isObject(schema.properties)) return null;
  const required = new Set(
    Array.isArray(schema.required)
      ? schema.required.filter((r): r is string => typeof r === 'string')
      : [],
  );
  const fields: Field[] = [];
  for (const [name, raw] of Object.entries(schema.properties)) {
    const prop = isObject(raw) ? raw : {};
    const kind = kindOf(prop);
    const current = args[name];
    fields.push({
      name,
      kind,
      required: required.has(name),
      label: typeof prop.title === 'string' ? prop.title : name,
      ...(typeof prop.description === 'string' ? { description: prop.description } : {}),
      ...(kind === 'enum' ? { options: prop.enum as unknown[] } : {}),
      multiline:
        kind === 'json' ||
        (kind === 'string' &&
          (LONG_TEXT.test(name) ||
            (typeof current === 'string' && (current.length > 60 || current.includes('\n'))))),
    });
  }
  return fields;
}

export function initialValues(fields: Field[], args: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const v = args[f.name];
    switch (f.kind) {
      case 'boolean':
        values[f.name] = v === true;
        break;
      case 'enum':
        values[f.name] =
          v === undefined
            ? ''
            : String(f.options?.findIndex((o) => JSON.stringify(o) === JSON.stringify(v)) ?? -1);
        break;
      case 'json':
        values[f.name] = v === undefined ? '' : JSON.stringify(v, null, 2);
        break;
      default:
        values[f.name] = v === undefined || v === null ? '' : String(v);
    }
  }
  return values;
}

export type BuildResult =
  { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/**
 * Turns form values into arguments. Starts from the original arguments so
 * keys the form does not show are kept; an empty optional field the agent
 * did not send stays absent.
 */
export function buildArgs(
  fields: Field[],
  values: FormValues,
  original: Record<string, unknown>,
): BuildResult {
  const args: Record<string, unknown> = { ...original };
  for (const f of fields) {
    const v = values[f.name];
    const had = Object.prototype.hasOwnProperty.call(original, f.name);
    if (f.kind === 'boolean') {
      if (v === true || had || f.required) args[f.name] = v === true;
      continue;
    }
    const text = typeof v === 'string' ? v : '';
    if (text.trim() === '' && f.kind !== 'string') {
      if (f.required) return { ok: false, error: `"${f.label}" is required.` };
      delete args[f.name];
      continue;
    }
    switch (f.kind) {
      case 'string':
        if (text === '' && !f.required && !had) delete args[f.name];
        else args[f.name] = text;
        break;
      case 'number':
      case 'integer': {
        const n = Number(text);
        if (!Number.isFinite(n)) return { ok: false, error: `"${f.label}" must be a number.` };
        if (f.kind === 'integer' && !Number.isInteger(n))
          return { ok: false, error: `"${f.label}" must be a whole number.` };
        args[f.name] = n;
        break;
      }
      case 'enum': {
        const option = f.options?.[Number(text)];
        if (option === undefined) return { ok: false, error: `Choose a value for "${f.label}".` };
        args[f.name] = option;
        break;
      }
      case 'json':
        try {
          args[f.name] = JSON.parse(text);
        } catch (err) {
          return {
            ok: false,
            error: `"${f.label}" is not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
          };
        }
        break;
    }
  }
  return { ok: true, args };
}

/** Parses the raw-JSON editor: the arguments must be one JSON object. */
export function parseRawArgs(text: string): BuildResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return {
      ok: false,
      error: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  if (!isObject(parsed))
    return { ok: false, error: 'The arguments must be a JSON object ({ … }).' };
  return { ok: true, args: parsed };
}
