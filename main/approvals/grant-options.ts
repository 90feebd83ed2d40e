import type { GrantConstraint, GrantOption } from '../../common/contract/index.js';
import type { GrantShape } from '../tools/types.js';
import { addressDomain, deliveredDomain, readDomain, strictHosts } from './addresses.js';
import { constraintHolds, describeScope } from './grant-scope.js';

/**
 * The scopes the grant dialog offers for a request (issue 16 item 2), picked from the call itself
 * and read the way the grant will be checked (issue 27 item 1): "every recipient in @mycorp.com"
 * when the tool's own parser puts every recipient in one domain, "exactly this value" for short
 * text. Only constraints that hold for this call are offered, each with what else it holds fixed.
 */
export function grantOptions(
  args: Record<string, unknown>,
  shape: GrantShape | undefined,
): GrantOption[] {
  const candidates: GrantConstraint[] = [];
  const domain = shape ? shapedDomain(args, shape) : undefined;
  if (domain) candidates.push(domain);
  for (const [path, value] of Object.entries(args)) {
    if (shape?.contentArgs.includes(path)) continue;
    if (!shape) {
      const hosts = strictHosts(value)?.map((h) => h.toLowerCase());
      if (hosts && new Set(hosts).size === 1)
        candidates.push({ path, op: 'domain', value: hosts[0]! });
    }
    const one = Array.isArray(value) && value.length === 1 ? value[0] : value;
    if (typeof one === 'string' && one.length > 0 && one.length <= 120 && !/[\r\n]/.test(one))
      candidates.push({ path, op: 'equals', value: one });
  }
  // A tool whose recipients come from state: the grant will hold to whom this call sends, so it is
  // offered only when they can be read, and says who they are (grant-scope.ts part 3).
  const approved = shape?.recipientsFromState ? readable(args, shape) : undefined;
  if (shape?.recipientsFromState && !approved?.length) return [];
  const out: GrantOption[] = [];
  for (const c of candidates) {
    if (!constraintHolds(c, args, shape)) continue;
    const { lead, tail } = describeScope(c, shape, approved);
    const label = lead[0]!.toUpperCase() + lead.slice(1);
    out.push({
      label: c.op === 'equals' ? `${label} “${c.value}”` : label,
      note: tail.replace(/^; /, ''),
      constraint: c,
    });
  }
  return out.slice(0, 12);
}

/** A domain grant over all of a built-in tool's recipients, when its parser puts them in one domain. */
function shapedDomain(
  args: Record<string, unknown>,
  shape: GrantShape,
): GrantConstraint | undefined {
  let destinations: string[];
  try {
    destinations = shape.destinations(args);
  } catch {
    return undefined;
  }
  // Keyed by the domain mail goes to (readDomain), shown as deliveredDomain shows it:
  // `bücher.de` and `xn--bcher-kva.de` are one domain.
  const domains = new Map<string, string>();
  for (const d of destinations) {
    const key = readDomain(addressDomain(d));
    if (!key) return undefined;
    if (!domains.has(key)) domains.set(key, deliveredDomain(addressDomain(d)));
  }
  const path = shape.recipientArgs.find((r) => Object.hasOwn(args, r));
  if (domains.size !== 1 || !path) return undefined;
  return { path, op: 'domain', value: [...domains.values()][0]! };
}

function readable(args: Record<string, unknown>, shape: GrantShape): string[] | undefined {
  try {
    return [...new Set(shape.destinations(args))].sort();
  } catch {
    return undefined;
  }
}
