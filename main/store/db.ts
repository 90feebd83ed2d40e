import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';

export type Db = Database.Database;

/**
 * Ordered, append-only migrations; `user_version` records how many ran.
 * Never edit a shipped migration: add a new one.
 */
const MIGRATIONS: string[] = [
  `CREATE TABLE activity (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at TEXT NOT NULL,
     agent TEXT NOT NULL,
     tool TEXT NOT NULL,
     decision TEXT NOT NULL,
     outcome TEXT NOT NULL,
     duration_ms INTEGER NOT NULL,
     args_digest TEXT NOT NULL,
     approval_id TEXT,
     detail TEXT
   );
   CREATE INDEX activity_agent ON activity(agent, id);
   CREATE INDEX activity_tool ON activity(tool, id);`,
  `CREATE TABLE approvals (
     id TEXT PRIMARY KEY,
     call_key TEXT NOT NULL,
     agent TEXT NOT NULL,
     tool_key TEXT NOT NULL,
     tool TEXT NOT NULL,
     args_json TEXT NOT NULL,
     effect TEXT NOT NULL,
     state TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     decided_at INTEGER,
     finished_at INTEGER,
     reason TEXT,
     edited_args_json TEXT,
     result_json TEXT
   );
   CREATE INDEX approvals_key ON approvals(call_key, created_at);
   CREATE INDEX approvals_state ON approvals(state);`,
  // Issue 16: grants with a scope, activity that follows a call to its end, cancel grace.
  `CREATE TABLE grants (
     id TEXT PRIMARY KEY,
     agent TEXT NOT NULL,
     tool_key TEXT NOT NULL,
     tool TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER,
     constraint_json TEXT,
     policy_fingerprint TEXT NOT NULL,
     approval_id TEXT,
     revoked_at INTEGER
   );
   CREATE INDEX grants_agent_tool ON grants(agent, tool_key);
   ALTER TABLE approvals ADD COLUMN decision_kind TEXT;
   ALTER TABLE approvals ADD COLUMN grant_id TEXT;
   ALTER TABLE approvals ADD COLUMN agent_left_at INTEGER;
   ALTER TABLE approvals ADD COLUMN started_at INTEGER;
   ALTER TABLE activity ADD COLUMN wait_ms INTEGER;
   ALTER TABLE activity ADD COLUMN decision_kind TEXT;
   ALTER TABLE activity ADD COLUMN grant_id TEXT;
   ALTER TABLE activity ADD COLUMN event TEXT;
   CREATE INDEX activity_approval ON activity(approval_id);`,
  // Issue 22: why a call was flagged (its provenance), and grants opted into flagged calls.
  `ALTER TABLE approvals ADD COLUMN taint_json TEXT;
   ALTER TABLE activity ADD COLUMN taint TEXT;
   ALTER TABLE grants ADD COLUMN include_tainted INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE known_parties (
     kind TEXT NOT NULL,
     value TEXT NOT NULL,
     learned_at INTEGER NOT NULL,
     PRIMARY KEY (kind, value)
   );`,
  // Issue 27: what a scoped grant holds fixed (the approved call's other arguments).
  `ALTER TABLE grants ADD COLUMN fixed_json TEXT;`,
  // What a request's card was made against (engine.ts sameToolAsShown): kept with the request, as
  // pending requests outlive a restart and an allow after it must be checked like one before it.
  `ALTER TABLE approvals ADD COLUMN shown_json TEXT;`,
];

export function openDatabase(path: string): Db {
  ownerOnly(path);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // WAL + NORMAL never corrupts and keeps every committed transaction across
  // a process crash (the case the approval states are built for); only a power
  // cut can lose the last moments. FULL would fsync on every tool call.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // better-sqlite3 builds SQLite with a 16 MB page cache per connection (SQLITE_DEFAULT_CACHE_SIZE
  // =-16000); SQLite's own default is 2 MB. The activity table grows by a row per call, so the
  // cache grew with it: resident memory rose ≈ 1 MiB per 5,000 calls with the JS heap flat,
  // until 16 MB (issue 20, "memory flat over long runs"). Airlock's queries read recent rows by
  // index; 2 MB holds those.
  db.pragma('cache_size = -2000');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The database was written by a newer Airlock (schema ${current}, this build knows ${MIGRATIONS.length}).`,
    );
  }
  for (let i = current; i < MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[i]!);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
}

/**
 * The database holds approval arguments and results in clear: owner-only
 * (issue 17, item 5). SQLite gives the -wal and -shm files it creates the
 * database file's permissions, so the file is created 0600 before SQLite
 * opens it; existing files (an older Airlock made them 0644) are tightened.
 */
function ownerOnly(path: string): void {
  // ':memory:' and '' are SQLite's in-memory and temporary databases, not file names: creating
  // them here left an empty file called ':memory:' in the working directory.
  if (process.platform === 'win32' || path === ':memory:' || path === '') return;
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`])
    if (existsSync(file)) chmodSync(file, 0o600);
}
