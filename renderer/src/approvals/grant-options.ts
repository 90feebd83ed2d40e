import type { GrantConstraint } from '../../../common/contract';

/**
 * Scopes a grant can be narrowed to, picked from the call itself (issue 16
 * item 2): "every recipient in @mycorp.com" for address-like arguments,
 * "exactly this value" for short text (a calendar id, a channel). Pure.
 */
export interface ConstraintOption {
  label: string;
  constraint: GrantConstraint;
}

const EMAIL = /@([a-z0-9-]+(\.[a-z0-9-]+)+)>?$/i;

function strings(v: unknown): string[] | null {
  if (typeof v === 'string')
    return v
      .split(/[,;]/)
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'))
    return v.map((s) => s.trim()).filter(Boolean);
  return null;
}

export function constraintOptions(args: Record<string, unknown>): ConstraintOption[] {
  const out: ConstraintOption[] = [];
  for (const [path, value] of Object.entries(args ?? {})) {
    const items = strings(value);
    if (!items || items.length === 0) continue;
    const domains = items.map((s) => EMAIL.exec(s)?.[1]?.toLowerCase());
    if (domains.every(Boolean) && new Set(domains).size === 1) {
      const d = domains[0]!;
      out.push({
        label: `Only when every ${path} is in @${d}`,
        constraint: { path, op: 'domain', value: d },
      });
    }
    if (typeof value === 'string' && value.length <= 120 && !value.includes('\n')) {
      out.push({
        label: `Only when ${path} is exactly “${value}”`,
        constraint: { path, op: 'equals', value },
      });
    }
  }
  return out.slice(0, 12);
}

export const DURATIONS: { label: string; hours?: number }[] = [
  { label: 'For 1 hour', hours: 1 },
  { label: 'For 8 hours', hours: 8 },
  { label: 'For 24 hours', hours: 24 },
  { label: 'For 7 days', hours: 24 * 7 },
  { label: 'Until I revoke it' },
];
