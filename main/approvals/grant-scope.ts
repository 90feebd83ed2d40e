import type { GrantConstraint } from '../../common/contract/index.js';
import type { GrantShape } from '../tools/types.js';
import { addressDomain, hostsIn, inDomain, strictHosts } from './addresses.js';
import { canonicalJson } from './canonical.js';

/**
 * Does a call fit a scoped grant? (issue 27 item 1: a grant is checked against what the tool will
 * actually do.) Two parts, both required:
 *
 * 1. The constraint holds, read the way the tool reads it. A built-in tool names its recipient
 *    arguments and parses them itself (GrantShape: Gmail with the composer's own address parser,
 *    Calendar with its guest-list reader); a `domain` grant then covers every recipient of the
 *    call — to, cc and bcc alike — and each must be in the domain. A third-party tool's parser is
 *    not known: its constrained argument must hold only bare addresses or plain links, and every
 *    address or link anywhere in the arguments must be in the domain.
 * 2. Every argument the grant does not mention is absent or equal to the approved call's. What a
 *    grant mentions: its constraint's path; for a `domain` grant on a built-in tool, all its
 *    recipient arguments; and the content a built-in tool declares (a mail's subject and body).
 *
 * 3. For a tool whose recipients come from state the arguments only name (GrantShape
 *    .recipientsFromState: gmail_send_draft's draft), the same arguments can reach other people
 *    later. The grant records the destinations of the call the user approved, and a grant that
 *    is not a domain grant (which checks every destination itself) covers a later call only while
 *    each of its destinations — read by the tool's own parser at the time of the call — is one of
 *    them. "Send draft X" approved while X went to R does not send X once it goes to someone else.
 *
 * Anything else — an argument added, a value changed, an address that cannot be read — asks.
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

/**
 * An `equals` constraint: the value at its path is the text (or a list of that text alone). Not
 * a list of it several times: a tool may act once per item (three messages to the one approved
 * number), which is not the call the user pictured.
 */
export function equalsHolds(c: GrantConstraint, args: unknown): boolean {
  const value = valueAt(args, c.path);
  const items = Array.isArray(value) ? value : [value];
  if (items.length !== 1) return false;
  return items.every(
    (item) =>
      (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') &&
      String(item) === c.value,
  );
}

/** The arguments a scoped grant lets differ from the approved call's. */
export function varyingArgs(c: GrantConstraint, shape: GrantShape | undefined): string[] {
  const out = new Set<string>([c.path, ...(shape?.contentArgs ?? [])]);
  if (c.op === 'domain' && shape) for (const r of shape.recipientArgs) out.add(r);
  return [...out];
}

/** The constraint itself holds for these arguments (part 1 above). */
export function constraintHolds(
  c: GrantConstraint,
  args: Record<string, unknown>,
  shape: GrantShape | undefined,
): boolean {
  if (c.op === 'equals') return equalsHolds(c, args);
  if (shape) {
    if (!shape.recipientArgs.includes(c.path)) return false;
    let destinations: string[];
    try {
      destinations = shape.destinations(args);
    } catch {
      return false; // The tool could not read them either: the call would fail, so it asks.
    }
    return (
      destinations.length > 0 && destinations.every((d) => inDomain(addressDomain(d), c.value))
    );
  }
  const named = strictHosts(valueAt(args, c.path));
  const all = hostsIn(args);
  if (!named || !all) return false;
  return [...named, ...all].every((h) => inDomain(h, c.value));
}

/**
 * The approved call without what may vary, as canonical JSON: what a later call's other
 * arguments must equal (part 2 above).
 */
export function fixedPart(
  args: Record<string, unknown>,
  c: GrantConstraint,
  shape: GrantShape | undefined,
): string {
  return canonicalJson(fixedArgs(args, c, shape));
}

function fixedArgs(
  args: Record<string, unknown>,
  c: GrantConstraint,
  shape: GrantShape | undefined,
): unknown {
  return without(
    args,
    varyingArgs(c, shape).map((p) => p.split('.')),
  );
}

/**
 * What a scoped grant stores (the `fixed_json` column): the fixed part; for a tool whose recipients
 * come from state, `[fixed arguments, approved destinations]` (part 3 above) — an array, never
 * confused with a fixed part, which is always an object. Throws when the approved call's
 * destinations cannot be read: then there is nothing to hold a grant to.
 */
export function grantRecord(
  args: Record<string, unknown>,
  c: GrantConstraint,
  shape: GrantShape | undefined,
): string {
  if (!shape?.recipientsFromState) return fixedPart(args, c, shape);
  const approved = [...new Set(shape.destinations(args))].sort();
  if (approved.length === 0) throw new Error('the approved call has no recipients');
  return canonicalJson([fixedArgs(args, c, shape), approved]);
}

/** A stored record read back (part 3 above); null when it is not one (made the old way). */
export function approvedRecipients(
  fixed: string | null,
  shape: GrantShape | undefined,
): { fixed: string; recipients: string[] } | null {
  if (fixed === null || !shape?.recipientsFromState) return null;
  let value: unknown;
  try {
    value = JSON.parse(fixed);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [args, recipients] = value as unknown[];
  if (!args || typeof args !== 'object' || Array.isArray(args)) return null;
  if (!Array.isArray(recipients) || recipients.length === 0) return null;
  if (!recipients.every((r): r is string => typeof r === 'string')) return null;
  return { fixed: canonicalJson(args), recipients };
}

/** Whether a call fits a scoped grant: its constraint holds and everything else is as approved. */
export function fitsScope(
  g: { constraint: GrantConstraint; fixed: string | null },
  args: Record<string, unknown>,
  shape: GrantShape | undefined,
): boolean {
  // A grant made before the fixed part was kept (issue 27) never matches: it was checked the old way.
  if (g.fixed === null) return false;
  if (!constraintHolds(g.constraint, args, shape)) return false;
  if (!shape?.recipientsFromState) return fixedPart(args, g.constraint, shape) === g.fixed;
  // Part 3: a record made before the approved recipients were kept never matches either.
  const record = approvedRecipients(g.fixed, shape);
  if (!record || fixedPart(args, g.constraint, shape) !== record.fixed) return false;
  if (g.constraint.op === 'domain') return true; // constraintHolds read every destination
  let destinations: string[];
  try {
    destinations = shape.destinations(args);
  } catch {
    return false; // Not read, or not the version the send is bound to: it asks.
  }
  const approved = new Set(record.recipients);
  return destinations.length > 0 && destinations.every((d) => approved.has(d));
}

/** A copy of the arguments without the values at these paths (own properties only). */
function without(value: unknown, paths: string[][]): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value) || paths.length === 0)
    return value;
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(value)) {
    const here = paths.filter((p) => p[0] === k);
    if (here.some((p) => p.length === 1)) continue;
    out[k] = without(
      v,
      here.map((p) => p.slice(1)),
    );
  }
  return out;
}

/** In words, for the grant's record and its views. */
export function describeScope(
  c: GrantConstraint,
  shape: GrantShape | undefined,
  approved?: readonly string[],
): { lead: string; tail: string } {
  const lead =
    c.op === 'domain'
      ? shape
        ? `only when every recipient (${shape.recipientArgs.join(', ')}) is in @${c.value}`
        : `only when every address and link in the arguments is in @${c.value}`
      : `only when ${c.path} is`;
  const free = varyingArgs(c, shape).filter(
    (a) => a !== c.path && !shape?.recipientArgs.includes(a),
  );
  const differ = c.op === 'domain' && !shape ? [c.path, ...free] : free;
  // Part 3: say whom the grant reaches, since the arguments do not.
  const only =
    shape?.recipientsFromState && c.op !== 'domain'
      ? approved?.length
        ? `; only while it goes to ${list([...approved])} (or some of them)`
        : '; only while it goes to the recipients of the call you approved'
      : '';
  const tail = differ.length
    ? `${only}; ${list(differ)} may differ, everything else as in the call you approved`
    : `${only}; everything else as in the call you approved`;
  return { lead, tail };
}

function list(items: string[]): string {
  return items.length < 2
    ? items.join('')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
