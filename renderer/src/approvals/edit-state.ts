import {
  buildArgs,
  fieldsFor,
  initialValues,
  parseRawArgs,
  type BuildResult,
  type Field,
  type FormValues,
} from './schema-form';

/**
 * The "Edit & allow" editor's state: a form built from the tool's schema, or the arguments as raw
 * JSON, and the user switches between them. `base` is the call the form was built from — the
 * agent's, or the raw JSON the user last switched from — and a form is always built from it: one
 * built from the agent's call after the user deleted a key in the JSON put that key back on
 * submit (buildArgs starts from its call), and read a value the user had retyped with the agent's
 * field kinds.
 */
export interface EditState {
  raw: boolean;
  base: Record<string, unknown>;
  /** Null when the schema makes no form (raw JSON only). */
  fields: Field[] | null;
  values: FormValues;
  rawText: string;
}

type Schema = Record<string, unknown>;

export function startEdit(schema: Schema, args: Record<string, unknown>): EditState {
  const fields = fieldsFor(schema, args);
  return {
    raw: fields === null,
    base: args,
    fields,
    values: fields ? initialValues(fields, args) : {},
    rawText: JSON.stringify(args, null, 2),
  };
}

/** The other mode, holding what the user wrote; an error when it does not parse. */
export function switchMode(s: EditState, schema: Schema): EditState | { error: string } {
  if (!s.fields) return s;
  if (!s.raw) {
    const built = buildArgs(s.fields, s.values, s.base);
    if (!built.ok) return { error: built.error };
    return { ...s, raw: true, rawText: JSON.stringify(built.args, null, 2) };
  }
  const parsed = parseRawArgs(s.rawText);
  if (!parsed.ok) return { error: parsed.error };
  const fields = fieldsFor(schema, parsed.args) ?? s.fields;
  return {
    ...s,
    raw: false,
    base: parsed.args,
    fields,
    values: initialValues(fields, parsed.args),
  };
}

/** The arguments the user allows: exactly what the mode on screen shows. */
export function submitArgs(s: EditState): BuildResult {
  return s.raw || !s.fields ? parseRawArgs(s.rawText) : buildArgs(s.fields, s.values, s.base);
}
