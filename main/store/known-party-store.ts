import type { Db } from './db.js';

/**
 * Destinations the user has approved calls to (issue 22): the user's circle
 * as the taint check learns it, kept across restarts. Private data (who the
 * user writes to), so it lives in the owner-only database, never in settings.
 */
export class KnownPartyStore {
  constructor(private readonly db: Db) {}

  all(): { kind: 'address' | 'host'; value: string }[] {
    return this.db.prepare('SELECT kind, value FROM known_parties').all() as {
      kind: 'address' | 'host';
      value: string;
    }[];
  }

  add(kind: 'address' | 'host', value: string): void {
    this.db
      .prepare('INSERT OR IGNORE INTO known_parties (kind, value, learned_at) VALUES (?, ?, ?)')
      .run(kind, value, Date.now());
  }
}
