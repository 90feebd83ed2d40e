import { renewedMap } from '../../platform/renewing-map.js';

/**
 * The SDK Protocol's per-request Maps (SDK 2.4, shared/protocol.ts: private fields made with the
 * client, so as long-lived as the upstream session) that every call takes a key in: the response
 * handler, the timeout, the progress handler. The one place Airlock replaces an SDK private field.
 */
export const BOOK_MAPS = ['_responseHandlers', '_timeoutInfo', '_progressHandlers'] as const;

/** How many of a client's request ids go by between renewals (as RenewingMap's default). */
export const RENEW_EVERY = 64;

/**
 * Renews the books of `client` (an SDK Client or Protocol): each Map is replaced by a copy on a
 * young table and the old one emptied, last entry first (renewing-map.ts `renewedMap`).
 * lean-call.ts calls it when the id a call just took is a multiple of RENEW_EVERY, asked there
 * (issue 34 counts the functions a call runs).
 *
 * Why (issue 34, docs/performance.md "The rest of a call's promotion (wave 3 session 32)"): the
 * Maps are made with the client and soon promoted; V8's OrderedHashTable::Rehash allocates a Map's
 * new table in the old one's generation and leaves the old table, with the handlers of the calls
 * then in flight, as old-space garbage that every scavenge takes as a root (the remembered set)
 * until the next mark-sweep, so those calls were promoted. The SDK reads each Map through its
 * field every time (`this._responseHandlers.get(…)`; `_onclose` swaps the field and walks the Map
 * it took), so a new Map in the field is seen at once. A field that is not a plain Map (an SDK
 * that renamed or reshaped it, or made it a Map subclass) is left alone; renew-books.test.ts
 * fails if any is not one, so an SDK upgrade cannot silently undo this.
 */
export function renewBooks(client: object): void {
  const books = client as Record<string, unknown>;
  for (const field of BOOK_MAPS) {
    const old = books[field];
    // A plain Map only: a copy of a Map subclass would be a plain Map without its behaviour.
    if (old instanceof Map && Object.getPrototypeOf(old) === Map.prototype)
      books[field] = renewedMap(old);
  }
}
