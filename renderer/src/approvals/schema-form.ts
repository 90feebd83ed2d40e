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
  /** A boolean's `default` in the schema: what the tool does when the argument is left out. */
  default?: boolean;
  /** An argument the call holds that the schema does not name (an open schema). */
  extra?: boolean;
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

/**
 * Whether the form's input for `kind` shows `value` as the tool will receive it: a value it
 * cannot (null in a number box, a number in a text box, a value the enum does not list) would
 * come back from an untouched form as something else — "" or absent for null, "5" for 5 — and
 * the call that runs would not be the one the card showed. Such a value is edited as JSON.
 */
function fits(kind: FieldKind, value: unknown, options: unknown[] | undefined): boolean {
  if (value === undefined) return true;
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'enum':
      return !!options?.some((o) => JSON.stringify(o) === JSON.stringify(value));
    case 'json':
      return true;
  }
}

/**
 * Fields for an object schema with properties, or null when only raw JSON makes sense. Every
 * argument the call holds gets a field, also one the schema does not name (an open schema lets
 * the agent add any): the form is the whole call the user allows, not the part the schema lists.
 */
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
    const current = Object.hasOwn(args, name) ? args[name] : undefined;
    const declared = kindOf(prop);
    const options = declared === 'enum' ? (prop.enum as unknown[]) : undefined;
    const kind = fits(declared, current, options) ? declared : 'json';
    fields.push({
      name,
      kind,
      required: required.has(name),
      label: typeof prop.title === 'string' ? prop.title : name,
      ...(typeof prop.description === 'string' ? { description: prop.description } : {}),
      ...(kind === 'enum' ? { options } : {}),
      ...(kind === 'boolean' && typeof prop.default === 'boolean' ? { default: prop.default } : {}),
      // A one-line input strips CR and LF from what it shows (HTML value sanitization): a value
      // holding either would be shown without it and sent with it.
      multiline:
        kind === 'json' ||
        (kind === 'string' &&
          (LONG_TEXT.test(name) ||
            (typeof current === 'string' && (current.length > 60 || /[\r\n]/.test(current))))),
    });
  }
  for (const name of Object.keys(args))
    if (!Object.hasOwn(schema.properties, name))
      fields.push({
        name,
        kind: 'json',
        required: false,
        label: name,
        multiline: true,
        extra: true,
      });
  return fields;
}

export function initialValues(fields: Field[], args: Record<string, unknown>): FormValues {
  // No prototype: a field named "__proto__" (an open schema's argument) is a value like any other.
  const values = Object.create(null) as FormValues;
  for (const f of fields) {
    const v = Object.hasOwn(args, f.name) ? args[f.name] : undefined;
    switch (f.kind) {
      case 'boolean':
        // Left out, the tool does what its schema's default says: the box shows that, not "off".
        values[f.name] = v === undefined ? f.default === true : v === true;
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
 * Turns form values into arguments. Every argument of `original` has a field (fieldsFor), so
 * what comes back is what the form shows: a field left alone gives the agent's value back
 * exactly (schema-form.property.test.ts), an emptied optional one is left out.
 */
export function buildArgs(
  fields: Field[],
  values: FormValues,
  original: Record<string, unknown>,
): BuildResult {
  const args: Record<string, unknown> = { ...original };
  // Defined, not assigned: assigning "__proto__" would set the prototype and drop the argument.
  const put = (name: string, value: unknown) =>
    Object.defineProperty(args, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  for (const f of fields) {
    const v = Object.hasOwn(values, f.name) ? values[f.name] : undefined;
    const had = Object.hasOwn(original, f.name);
    if (f.kind === 'boolean') {
      // Left out and left as its default shows it, it stays out; any other box is sent as shown.
      if (had || f.required || (v === true) !== (f.default === true)) put(f.name, v === true);
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
        else put(f.name, text);
        break;
      case 'number':
      case 'integer': {
        const n = Number(text);
        if (!Number.isFinite(n)) return { ok: false, error: `"${f.label}" must be a number.` };
        if (f.kind === 'integer' && !Number.isInteger(n))
          return { ok: false, error: `"${f.label}" must be a whole number.` };
        put(f.name, n);
        break;
      }
      case 'enum': {
        const option = f.options?.[Number(text)];
        if (option === undefined) return { ok: false, error: `Choose a value for "${f.label}".` };
        put(f.name, option);
        break;
      }
      case 'json':
        try {
          put(f.name, JSON.parse(text));
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
