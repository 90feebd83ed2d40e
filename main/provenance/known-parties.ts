import {
  canonicalAddress,
  canonicalHost,
  hostOfAddress,
  organisationOf,
  PUBLIC_MAIL_DOMAINS,
  siteOf,
  withinDomain,
} from './identity.js';

/**
 * The user's circle (issue 22): who a send, share or invite may go to
 * without raising a flag. Built from the user's own accounts (and their
 * organisation's domain with its sub-domains, unless it is a public mail
 * provider), from destinations the user has approved before, and from
 * whatever a source can tell (contacts, sent mail) through `seed`.
 *
 * Every value goes through identity.ts's one normalisation (issue 30), the
 * same the content index and the check use: `Bob+news@GoogleMail.com` is
 * `bob@gmail.com` here as everywhere.
 *
 * Persisted by the caller (`onLearn`): an approved destination is remembered
 * across restarts, so a user is not asked twice about the same colleague.
 */
export class KnownParties {
  private readonly own = new Set<string>();
  private readonly addresses = new Set<string>();
  private readonly domains = new Set<string>();
  private readonly hosts = new Set<string>();

  constructor(private readonly onLearn?: (kind: 'address' | 'host', value: string) => void) {}

  /** The user's own mailbox: the address, and its organisation's domain when it is not public. */
  addOwnAccount(address: string): void {
    const a = canonicalAddress(address);
    if (!a) return;
    this.own.add(a);
    this.addresses.add(a);
    const host = hostOfAddress(a);
    if (!PUBLIC_MAIL_DOMAINS.has(host)) this.domains.add(organisationOf(host));
  }

  /** Known without asking (contacts, sent mail, saved at an earlier run). */
  seed(kind: 'address' | 'host', value: string): void {
    const v = key(kind, value);
    if (v) (kind === 'address' ? this.addresses : this.hosts).add(v);
  }

  /** The user approved a call to this destination: remember it (and tell the store). */
  learn(kind: 'address' | 'host', value: string): void {
    const v = key(kind, value);
    const set = kind === 'address' ? this.addresses : this.hosts;
    if (!v || set.has(v)) return;
    set.add(v);
    this.onLearn?.(kind, v);
  }

  /** One of the user's own mailboxes. */
  isOwnAddress(address: string): boolean {
    return this.own.has(canonicalAddress(address));
  }

  /** One of the user's own mailboxes, or an address of her organisation's domain. */
  isOwnOrganisation(address: string): boolean {
    const a = canonicalAddress(address);
    return a !== '' && (this.own.has(a) || this.inOwnDomain(hostOfAddress(a)));
  }

  isKnownAddress(address: string): boolean {
    const a = canonicalAddress(address);
    if (!a) return false;
    return this.addresses.has(a) || this.inOwnDomain(hostOfAddress(a));
  }

  isKnownHost(host: string): boolean {
    const h = host.startsWith('tel:') ? host : siteOf(canonicalHost(host));
    if (!h) return false;
    return this.hosts.has(h) || this.inOwnDomain(h);
  }

  /** The organisation's domain or one of its sub-domains (eu.mycorp.com, docs.mycorp.com). */
  private inOwnDomain(host: string): boolean {
    for (const d of this.domains) if (withinDomain(host, d)) return true;
    return false;
  }
}

function key(kind: 'address' | 'host', value: string): string {
  if (kind === 'address') return canonicalAddress(value);
  return value.startsWith('tel:') ? value : siteOf(canonicalHost(value));
}
