import { codeUnits, textPrefix } from '../../common/text-cut.js';
/**
 * Typed checks for the few small JSON shapes Airlock reads at start (settings.json, the Google
 * token bundle and client file). They were zod schemas; zod costs ≈ 15 MiB of resident memory
 * once imported, which an idle gateway paid for nothing but these (issue 20: idle RSS ≤ 80 MiB).
 * The MCP SDK still brings zod along with the first /mcp request, for the protocol's own schemas.
 *
 * A check takes a value, the path it sits at and a list to add problems to, and returns the
 * value with defaults filled in. Objects are strict (an unknown key is a problem), records and
 * objects are built with own data properties only (a `__proto__` key stays a plain key).
 */
export type Check<T> = (value: unknown, at: string, issues: string[]) => T;
/** A key that may be absent; the object leaves it out rather than setting `undefined`. */
export type Optional<T> = Check<T | undefined> & { readonly optional: true };

export type Infer<C> = C extends Optional<infer T> ? T : C extends Check<infer T> ? T : never;

type OptionalKeys<S> = { [K in keyof S]: S[K] extends { optional: true } ? K : never }[keyof S];
type Simplify<T> = { [K in keyof T]: T[K] } & {};
export type ObjectOf<S> = Simplify<
  { [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & {
    [K in OptionalKeys<S>]?: Infer<S[K]>;
  }
>;

export class ShapeError extends Error {
  override name = 'ShapeError';
  constructor(readonly issues: string[]) {
    super(
      issues.slice(0, 10).join('; ') +
        (issues.length > 10 ? ` (and ${issues.length - 10} more)` : ''),
    );
  }
}

/** Runs a check; throws ShapeError listing every problem (the first ten in the message). */
export function parse<T>(check: Check<T>, value: unknown): T {
  const issues: string[] = [];
  const out = check(value, '', issues);
  if (issues.length) throw new ShapeError(issues);
  return out;
}

export function safeParse<T>(
  check: Check<T>,
  value: unknown,
): { ok: true; value: T } | { ok: false; error: ShapeError } {
  try {
    return { ok: true, value: parse(check, value) };
  } catch (err) {
    if (err instanceof ShapeError) return { ok: false, error: err };
    throw err;
  }
}

const where = (at: string) => at || '(root)';
const fail = <T>(issues: string[], at: string, expected: string, value: unknown): T => {
  issues.push(`${where(at)}: expected ${expected}, got ${describe(value)}`);
  return value as T;
};

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string')
    return JSON.stringify(v.length > 40 ? `${textPrefix(v, 40, codeUnits)}…` : v);
  if (typeof v === 'object') return 'an object';
  return String(v);
}

export const string =
  (o: { min?: number } = {}): Check<string> =>
  (v, at, issues) =>
    typeof v === 'string' && v.length >= (o.min ?? 0)
      ? v
      : fail(issues, at, o.min ? `a string of at least ${o.min} characters` : 'a string', v);

export const number =
  (o: { int?: boolean; min?: number; max?: number } = {}): Check<number> =>
  (v, at, issues) => {
    const ok =
      typeof v === 'number' &&
      Number.isFinite(v) &&
      (!o.int || Number.isInteger(v)) &&
      (o.min === undefined || v >= o.min) &&
      (o.max === undefined || v <= o.max);
    if (ok) return v;
    const range =
      o.min !== undefined && o.max !== undefined
        ? ` from ${o.min} to ${o.max}`
        : o.min !== undefined
          ? ` of at least ${o.min}`
          : o.max !== undefined
            ? ` of at most ${o.max}`
            : '';
    return fail(issues, at, `${o.int ? 'an integer' : 'a number'}${range}`, v);
  };

export const boolean = (): Check<boolean> => (v, at, issues) =>
  typeof v === 'boolean' ? v : fail(issues, at, 'true or false', v);

export const oneOf =
  <L extends string | number>(...values: L[]): Check<L> =>
  (v, at, issues) =>
    values.includes(v as L)
      ? (v as L)
      : fail(issues, at, values.map((x) => JSON.stringify(x)).join(' or '), v);

export const array =
  <T>(item: Check<T>): Check<T[]> =>
  (v, at, issues) =>
    Array.isArray(v)
      ? v.map((x, i) => item(x, `${at}[${i}]`, issues))
      : fail(issues, at, 'a list', v);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object with any keys, each value checked by `item`. */
export const record =
  <T>(item: Check<T>): Check<Record<string, T>> =>
  (v, at, issues) =>
    isPlainObject(v)
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, item(x, `${at}.${k}`, issues)]))
      : fail(issues, at, 'an object', v);

/**
 * An object with these keys. Strict by default: an unknown key is a problem (a misspelt setting
 * must not be silently ignored). `strip` drops unknown keys instead, for files others write.
 */
export const object =
  <S extends Record<string, Check<unknown>>>(
    shape: S,
    o: { unknown?: 'refuse' | 'strip' } = {},
  ): Check<ObjectOf<S>> =>
  (v, at, issues) => {
    if (!isPlainObject(v)) return fail(issues, at, 'an object', v);
    if (o.unknown !== 'strip')
      for (const k of Object.keys(v))
        if (!Object.hasOwn(shape, k)) issues.push(`${at ? `${at}.` : ''}${k}: not a known key`);
    const out: [string, unknown][] = [];
    for (const [k, check] of Object.entries(shape)) {
      const x = check(v[k], at ? `${at}.${k}` : k, issues);
      if (x !== undefined) out.push([k, x]);
    }
    return Object.fromEntries(out) as ObjectOf<S>;
  };

export const optional = <T>(check: Check<T>): Optional<T> =>
  Object.assign(
    (v: unknown, at: string, issues: string[]) =>
      v === undefined ? undefined : check(v, at, issues),
    {
      optional: true as const,
    },
  );

export const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (v, at, issues) =>
    v === null ? null : check(v, at, issues);

/** Absent → `fallback`, itself run through the check (so an object's own defaults fill in). */
export const withDefault =
  <T>(check: Check<T>, fallback: unknown): Check<T> =>
  (v, at, issues) =>
    check(v === undefined ? structuredClone(fallback) : v, at, issues);
