/**
 * Where a server the user added by a host name was first reached: on the public internet or on
 * the user's network (address-guard.ts classes). A name's owner chooses what it resolves to and
 * may change it between two connections (DNS rebinding, a hostile resolver): a public server's
 * name later answering 192.168.1.1 sent the user's header secrets and OAuth token to whatever
 * answers there — the router's admin page, a NAS. So the class of the first address connected to
 * is kept with the server's settings (`reach`, settings.ts), and a later connection may not go
 * further in: recorded `public`, a private address is refused; recorded `private` (a server on
 * the LAN, a `.local` name) stays allowed on the network. Only the user loosens it: removing the
 * server and adding it again, or giving it another URL (remote-loosening.ts asks for that).
 */
import type { AddressClass } from './address-guard.js';

/** The classes a server reached by a name may be recorded at (loopback and link-local never are). */
export type PinnedReach = 'public' | 'private';

export class AddressPin {
  private current: PinnedReach | undefined;
  private saved: boolean;
  /** A socket of this run was handed a private address while nothing was decided. */
  private handedPrivate = false;

  constructor(
    /** What settings hold (absent: a server from before this was recorded, or never reached). */
    recorded: PinnedReach | undefined,
    /** Called once, when the first connection on an unrecorded pin succeeded: keep it. */
    private readonly onRecord?: (reach: PinnedReach) => void,
  ) {
    this.current = recorded;
    this.saved = recorded !== undefined;
  }

  /**
   * The class in force: recorded, or `public` once a socket of this process was handed a public
   * address. A private hand decides nothing before a connection succeeded (`connected`).
   */
  get reach(): PinnedReach | undefined {
    return this.current;
  }

  /**
   * The lookup handed a socket addresses of this class (guardedLookup: with no class yet, only
   * one class at a time). A public one decides at once, for every later lookup of this process —
   * an answer that turns private between the first socket and the second is refused already. A
   * private one only tightens nothing: the lookup that handed it may belong to an attempt that
   * fails (the attacker's name answering a LAN address where no MCP server listens, then its own
   * public server), and a pin set `private` by it would let the later public success record
   * `private` — the network open to that name for good.
   */
  handed(cls: AddressClass): void {
    if (this.current !== undefined) return;
    if (cls === 'public') this.current = 'public';
    else if (cls === 'private') this.handedPrivate = true;
  }

  /**
   * A connection to the server succeeded: record the class it was reached at, once — public if
   * any socket of this run was handed a public address, private if every one was handed private.
   */
  connected(): void {
    if (this.saved) return;
    const reach = this.current ?? (this.handedPrivate ? 'private' : undefined);
    if (reach === undefined) return;
    this.current = reach;
    this.saved = true;
    this.onRecord?.(reach);
  }
}
