import type { GrantConstraint } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { GrantShape } from '../tools/types.js';
import { normalizeDomain } from './addresses.js';
import { constraintHolds } from './grant-scope.js';

/**
 * Argument constraints of a grant (issue 16 item 2): "only when every
 * recipient is in @mycorp.com", "only this calendar". Strict by design: a
 * value that is absent, empty or not text never matches, so a grant can only
 * ever cover calls the user could picture when making it. What a constraint
 * checks, and what else a scoped grant holds fixed, is in grant-scope.ts.
 */

/** Checks a constraint the user picked: well formed, and true of the call it was picked from. */
export function checkConstraint(
  c: unknown,
  args: Record<string, unknown>,
  shape?: GrantShape,
): GrantConstraint {
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
  if (op === 'domain' && shape && !shape.recipientArgs.includes(path))
    throw new ControlError(
      'INVALID',
      `A domain applies to this tool's recipients (${shape.recipientArgs.join(', ')}), not to ${path}.`,
    );
  if (!constraintHolds(out, args, shape))
    throw new ControlError(
      'INVALID',
      `The constraint (${path} ${op === 'domain' ? 'in domain' : '='} ${out.value}) does not hold for this call; pick one that does.`,
    );
  return out;
}
