import { ALLOW_KINDS } from '../../common/contract/index.js';
import { describe, expect, it } from 'vitest';
import type { AgentService } from '../agents/agent-service.js';
import { newGrantService } from '../app/approvals-wiring.js';
import type { CoreEvents } from '../platform/events.js';
import type { Settings, SettingsStore } from '../platform/settings.js';
import type { ActivityLog } from '../store/activity.js';
import { ApprovalStore } from '../store/approval-store.js';
import { openDatabase } from '../store/db.js';
import type { ToolEntry, ToolRegistry } from '../tools/registry.js';
import { policyFingerprint, runFingerprint, toolFingerprint } from './policy.js';
import { allowRefusal, bindingNow } from './shown-binding.js';

/**
 * Fingerprints changed form (fingerprint-form.ts): set-like schema arrays are hashed in one order
 * and `annotations: {}` as none. Grants and pending cards stored by an Airlock from before hold
 * the old hash; they must keep working after the upgrade while the tool is listed as it was, and
 * stop as before once it changes. The OLD_* hashes below were written by the code before the
 * change (commit 684f89c, policy.ts) for this entry — a listing whose `required` is not in order
 * and whose `annotations` are `{}`, so its new hash differs from its old one.
 */
const OLD_POLICY = '9d3e73508a0b0078e2e05546b3ea641dc3f9e8b5628a5dbced8a0e6f5c666bf2';
const OLD_TOOL = '5cf465457b0ec81e96522158ae73508040c479ff786abef75aa2f6a0c3f7cb58';
const OLD_RUN = '95b50dc8715ef2f38fdda5115c1ee28f8f0289edc43fb49fc9980e7c1b455fc9';
const ARGS = { to: 'abc', body: 'short' };

const schema = (required: string[], bodyEnum: string[]) => ({
  type: 'object',
  properties: {
    to: { type: ['string', 'null'], minLength: 3 },
    body: { type: 'string', enum: bodyEnum },
  },
  required,
  additionalProperties: false,
});

function entryWith(inputSchema: Record<string, unknown>): ToolEntry {
  return {
    name: 'svc__send',
    key: 'remote:svc/send',
    source: {
      kind: 'remote',
      id: 'remote:svc',
      identity: () => JSON.stringify({ url: 'https://mcp.example/mcp' }),
    },
    def: { name: 'send', description: 'Sends a message.', inputSchema, annotations: {} },
  } as unknown as ToolEntry;
}
const AS_BEFORE = entryWith(schema(['to', 'body'], ['short', 'long']));

/** A database as the old code left it: one grant and one pending request, by its own SQL. */
function oldStore() {
  const db = openDatabase(':memory:');
  db.prepare(
    `INSERT INTO grants (id, agent, tool_key, tool, created_at, expires_at, constraint_json, policy_fingerprint, approval_id, include_tainted, fixed_json)
     VALUES ('g1', 'claude', 'remote:svc/send', 'svc__send', 1, NULL, NULL, ?, NULL, 0, NULL)`,
  ).run(OLD_POLICY);
  db.prepare(
    `INSERT INTO approvals (id, call_key, agent, tool_key, tool, args_json, effect, state, created_at, expires_at, taint_json, shown_json)
     VALUES ('a1', 'k', 'claude', 'remote:svc/send', 'svc__send', ?, '{}', 'pending', 1, 9e15, NULL, ?)`,
  ).run(JSON.stringify(ARGS), JSON.stringify({ tool: OLD_TOOL, runs: OLD_RUN }));
  return db;
}

const storedFingerprint = (db: ReturnType<typeof openDatabase>) =>
  (db.prepare("SELECT policy_fingerprint AS f FROM grants WHERE id = 'g1'").get() as { f: string })
    .f;

/** The product's grant wiring (approvals-wiring.ts) over that database and `entry` as listed now. */
function grantsOver(db: ReturnType<typeof openDatabase>, entry: ToolEntry) {
  return newGrantService({
    db,
    registry: { getByKey: (k: string) => (k === entry.key ? entry : undefined) } as ToolRegistry,
    settings: { get: () => ({ tools: {} }) as unknown as Settings } as SettingsStore,
    agents: { get: () => undefined } as unknown as AgentService,
    activity: { flush: () => {}, addNow: () => {} } as unknown as ActivityLog,
    events: { emit: () => {} } as unknown as CoreEvents,
  });
}

/** As approvals-wiring.ts gives the engine its fingerprints. */
const engineDeps = (entry: ToolEntry) => ({
  toolFingerprint: (_k: string, form?: 'current' | 'legacy') => toolFingerprint(entry, form),
  runFingerprint: (_k: string, a: Record<string, unknown>, form?: 'current' | 'legacy') =>
    runFingerprint(entry, a, form),
});

describe('grants and cards stored before the fingerprint form changed (upgrade)', () => {
  it('the fixture is one whose hash changed form, and the old code wrote these hashes', () => {
    const s = { tools: {} } as unknown as Settings;
    expect(policyFingerprint(s, AS_BEFORE, undefined, 'legacy')).toBe(OLD_POLICY);
    expect(toolFingerprint(AS_BEFORE, 'legacy')).toBe(OLD_TOOL);
    expect(runFingerprint(AS_BEFORE, ARGS, 'legacy')).toBe(OLD_RUN);
    expect(policyFingerprint(s, AS_BEFORE, undefined)).not.toBe(OLD_POLICY);
    expect(toolFingerprint(AS_BEFORE)).not.toBe(OLD_TOOL);
    expect(runFingerprint(AS_BEFORE, ARGS)).not.toBe(OLD_RUN);
  });

  it('an old grant still lets the call run, and is shown active, while the tool is as it was', () => {
    const grants = grantsOver(oldStore(), AS_BEFORE);
    expect(grants.match('claude', 'remote:svc/send', ARGS)?.id).toBe('g1');
    expect(grants.list()[0]).toMatchObject({ id: 'g1', active: true });
  });

  it('an old grant stops applying once the tool changes (an enum value added), as before', () => {
    const db = oldStore();
    const grants = grantsOver(db, entryWith(schema(['to', 'body'], ['short', 'long', 'x'])));
    expect(grants.match('claude', 'remote:svc/send', ARGS)).toBeNull();
    expect(grants.list({ includeInactive: true })[0]).toMatchObject({ id: 'g1', active: false });
    // Not rewritten: it still holds the hash of the tool the user granted, and of no other.
    expect(storedFingerprint(db)).toBe(OLD_POLICY);
    expect(grantsOver(db, AS_BEFORE).match('claude', 'remote:svc/send', ARGS)?.id).toBe('g1');
  });

  it('an old grant, once it held on the tool as granted, keeps through a relisting in another order', () => {
    // Review finding: compared in the legacy form only, an old grant ended at the first relisting
    // that put `required` or `enum` in another order — the case the new form is for.
    const db = oldStore();
    expect(grantsOver(db, AS_BEFORE).match('claude', 'remote:svc/send', ARGS)?.id).toBe('g1');
    const relisted = entryWith(schema(['body', 'to'], ['long', 'short']));
    expect(grantsOver(db, relisted).match('claude', 'remote:svc/send', ARGS)?.id).toBe('g1');
    // And the Grants page, which is also where a user first sees it after the upgrade.
    const db2 = oldStore();
    expect(grantsOver(db2, AS_BEFORE).list()[0]).toMatchObject({ id: 'g1', active: true });
    expect(grantsOver(db2, relisted).list()[0]).toMatchObject({ id: 'g1', active: true });
    // A real change still ends it.
    const changed = entryWith(schema(['body', 'to'], ['long', 'short', 'x']));
    expect(grantsOver(db, changed).match('claude', 'remote:svc/send', ARGS)).toBeNull();
  });

  it("an old pending card's allows are not refused while the tool is as it was", () => {
    const row = new ApprovalStore(oldStore()).get('a1')!;
    const now = bindingNow(engineDeps(AS_BEFORE), row, ARGS);
    for (const kind of ALLOW_KINDS)
      expect(allowRefusal('svc__send', row.shown ?? null, now, kind)).toBeNull();
  });

  it("an old pending card's allows are refused once the tool changed, as before", () => {
    const row = new ApprovalStore(oldStore()).get('a1')!;
    const changed = entryWith(schema(['to'], ['short', 'long']));
    const now = bindingNow(engineDeps(changed), row);
    expect(allowRefusal('svc__send', row.shown ?? null, now, 'allow_once')?.code).toBe('CONFLICT');
    expect(allowRefusal('svc__send', row.shown ?? null, now, 'always_allow')?.code).toBe(
      'CONFLICT',
    );
  });

  it('a grant made now holds through a relisting with its set-like arrays in another order', () => {
    const db = openDatabase(':memory:');
    const made = grantsOver(db, AS_BEFORE).create({
      agent: 'claude',
      toolKey: 'remote:svc/send',
      tool: 'svc__send',
      args: ARGS,
    });
    const relisted = entryWith(schema(['body', 'to'], ['long', 'short', 'long']));
    expect(grantsOver(db, relisted).match('claude', 'remote:svc/send', ARGS)?.id).toBe(made.id);
  });
});
