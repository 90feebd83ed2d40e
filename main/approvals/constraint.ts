import type { GrantConstraint } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';

/**
 * Argument constraints of a grant (issue 16 item 2): "only when every
 * recipient is in @mycorp.com", "only this calendar". Strict by design: a
 * value that is absent, empty or not text never matches, so a grant can only
 * ever cover calls the user could picture when making it.
 */

/** The value at a dotted path, through own properties only (no prototype keys). */
export function valueAt(args: unknown, path: string): unknown {
  let cur: unknown = args;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    if (!Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** The text values a constraint looks at: one string, a list of strings, or a comma-separated list. */
function texts(value: unknown, split: boolean): string[] | null {
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of items) {
    if (typeof item === 'number' || typeof item === 'boolean') out.push(String(item));
    else if (typeof item === 'string')
      out.push(...(split ? item.split(/[,;]/) : [item]).map((s) => s.trim()).filter(Boolean));
    else return null;
  }
  return out.length ? out : null;
}

/** The domain of an address (`Ann <ann@x.com>` → x.com) or host name / URL. */
export function domainOf(text: string): string {
  const t = text.trim().toLowerCase();
  const angle = /<([^>]*)>\s*$/.exec(t);
  const addr = angle ? angle[1]! : t;
  if (addr.includes('@')) return addr.slice(addr.lastIndexOf('@') + 1);
  try {
    return new URL(addr).hostname;
  } catch {
    return addr;
  }
}

export function normalizeDomain(d: string): string {
  return d
    .trim()
    .toLowerCase()
    .replace(/^[@.]+/, '');
}

export function matches(c: GrantConstraint, args: unknown): boolean {
  const values = texts(valueAt(args, c.path), c.op === 'domain');
  if (!values) return false;
  if (c.op === 'equals') return values.every((v) => v === c.value);
  const want = normalizeDomain(c.value);
  if (!want) return false;
  return values.every((v) => {
    const d = domainOf(v);
    return d === want || d.endsWith(`.${want}`);
  });
}

/** Checks a constraint the user picked: well formed, and true of the call it was picked from. */
export function checkConstraint(c: unknown, args: Record<string, unknown>): GrantConstraint {
  if (!c || typeof c !== 'object')
    throw new ControlError('INVALID', 'constraint must be an object.');
  const { path, op, value } = c as Record<string, unknown>;
  if (typeof path !== 'string' || !/^[^.\s]+(\.[^.\s]+)*$/.test(path) || path.length > 200)
    throw new ControlError('INVALID', 'constraint.path must be a dotted argument name, like "to".');
  if (op !== 'equals' && op !== 'domain')
    throw new ControlError('INVALID', 'constraint.op must be "equals" or "domain".');
  if (typeof value !== 'string' || value.trim() === '' || value.length > 500)
    throw new ControlError('INVALID', 'constraint.value must be non-empty text.');
  const out: GrantConstraint = {
    path,
    op,
    value: op === 'domain' ? normalizeDomain(value) : value,
  };
  if (!matches(out, args))
    throw new ControlError(
      'INVALID',
      `The constraint (${path} ${op === 'domain' ? 'in domain' : '='} ${out.value}) does not hold for this call; pick one that does.`,
    );
  return out;
}

export function describeConstraint(c: GrantConstraint): string {
  return c.op === 'domain'
    ? `only when every ${c.path} is in ${c.value}`
    : `only when ${c.path} is ${JSON.stringify(c.value)}`;
}
