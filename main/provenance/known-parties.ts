import { domainOf, normalizeEmail, PUBLIC_MAIL_DOMAINS } from './values.js';

/**
 * The user's circle (issue 22): who a send, share or invite may go to
 * without raising a flag. Built from the user's own accounts (and their
 * organisation's domain, unless it is a public mail provider), from
 * destinations the user has approved before, and from whatever a source can
 * tell (contacts, sent mail) through `seed`.
 *
 * Persisted by the caller (`onLearn`): an approved destination is remembered
 * across restarts, so a user is not asked twice about the same colleague.
 */
export class KnownParties {
  private readonly addresses = new Set<string>();
  private readonly domains = new Set<string>();
  private readonly hosts = new Set<string>();

  constructor(private readonly onLearn?: (kind: 'address' | 'host', value: string) => void) {}

  /** The user's own mailbox: the address, and its domain when it is an organisation's. */
  addOwnAccount(address: string): void {
    const a = normalizeEmail(address);
    this.addresses.add(a);
    const d = domainOf(a);
    if (!PUBLIC_MAIL_DOMAINS.has(d)) this.domains.add(d);
  }

  /** Known without asking (contacts, sent mail, saved at an earlier run). */
  seed(kind: 'address' | 'host', value: string): void {
    if (kind === 'address') this.addresses.add(normalizeEmail(value));
    else this.hosts.add(value.toLowerCase());
  }

  /** The user approved a call to this destination: remember it (and tell the store). */
  learn(kind: 'address' | 'host', value: string): void {
    const v = kind === 'address' ? normalizeEmail(value) : value.toLowerCase();
    const set = kind === 'address' ? this.addresses : this.hosts;
    if (set.has(v)) return;
    set.add(v);
    this.onLearn?.(kind, v);
  }

  isKnownAddress(address: string): boolean {
    const a = normalizeEmail(address);
    return this.addresses.has(a) || this.domains.has(domainOf(a));
  }

  isKnownHost(host: string): boolean {
    const h = host.toLowerCase().replace(/^www\./, '');
    if (this.hosts.has(h) || this.domains.has(h)) return true;
    // A subdomain of an organisation's own domain (docs.mycorp.com).
    for (const d of this.domains) if (h.endsWith(`.${d}`)) return true;
    return false;
  }
}
