import { describe, expect, it, vi } from 'vitest';
import { account, StaticGoogleAccess } from '../../e2e/fake-google/gmail-access.js';
import { eventually } from '../../test-support/eventually.js';
import type { GoogleAccountInfo } from '../google/account-access.js';
import { lazyCalendarSource, lazyGmailSource } from '../google/lazy-source.js';
import { CoreEvents } from '../platform/events.js';
import { ActivityLog } from '../store/activity.js';
import { ApprovalStore } from '../store/approval-store.js';
import { openDatabase } from '../store/db.js';
import { GrantStore } from '../store/grant-store.js';
import { ToolRegistry } from '../tools/registry.js';
import type { CallToolResult, ToolDefinition, ToolSource } from '../tools/types.js';
import { ApprovalEngine } from './engine.js';
import { GrantService } from './grants.js';
import { runFingerprint, toolFingerprint } from './policy.js';

/**
 * What a pending request's allow is bound to (engine.ts sameToolAsShown, policy.ts): allow once
 * and an edited allow to what runs — the tool's name, input schema and server, or for Gmail and
 * Calendar the account this call goes out from, as their own account pick resolves it; "always
 * allow" to the whole definition too, as the grant it makes is bound to it (grants.ts).
 * Two defects this holds shut: connecting an unrelated Google account made every pending Gmail
 * and Calendar allow impossible, and a server whose description carries a timestamp could never
 * have a call allowed while it waited.
 */

type Acct = GoogleAccountInfo & { token: string };
const G = 'https://www.googleapis.com/auth/';
/** An account that may write mail and events (StaticGoogleAccess's `account` has Gmail's scopes only). */
const writer = (email: string): Acct => ({
  ...account(email, 't'),
  scopes: [`${G}gmail.modify`, `${G}gmail.compose`, `${G}calendar`],
});
const reader = (email: string): Acct => ({
  ...writer(email),
  readOnly: true,
  scopes: [`${G}gmail.readonly`, `${G}calendar.readonly`],
});

/** A remote server's tool, as a ToolSource with a URL for identity() (remote-source.ts). */
class FakeRemote implements ToolSource {
  readonly id = 'srv';
  readonly kind = 'remote' as const;
  readonly label = 'Server';
  readonly prefix = 'srv';
  url = 'https://mcp.example.com/mcp';
  private readonly listeners = new Set<() => void>();
  def: ToolDefinition = {
    name: 'transfer',
    title: 'Transfer',
    description: 'Transfers money. Listed at 12:00:00.',
    inputSchema: {
      type: 'object',
      properties: { amount: { type: 'number' }, to: { type: 'string' } },
      required: ['amount', 'to'],
    },
    annotations: { destructiveHint: true },
  };
  ready = () => Promise.resolve();
  status = () => ({ state: 'ready' as const });
  tools = () => [this.def];
  onChange(l: () => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  identity = () => JSON.stringify({ url: this.url });
  change(patch: Partial<ToolDefinition>) {
    this.def = { ...this.def, ...patch };
    for (const l of this.listeners) l();
  }
  call = (): Promise<CallToolResult> => Promise.resolve({ content: [] });
}

/** The engine with its card binding wired as main/app/approvals-wiring.ts wires it. */
async function harness(accounts: Acct[]) {
  const access = new StaticGoogleAccess('http://127.0.0.1:1/', accounts);
  const registry = new ToolRegistry();
  const remote = new FakeRemote();
  // As the app registers Google's sources (main/app/tool-sources.ts): the lazy stand-ins, loaded.
  const sources = [lazyGmailSource(access), lazyCalendarSource(access), remote];
  await Promise.all(sources.map((s) => s.ready()));
  for (const s of sources) registry.add(s);
  expect(registry.getByKey(SEND) !== undefined).toBe(accounts.length > 0);
  const db = openDatabase(':memory:');
  const activity = new ActivityLog(db);
  const grants = new GrantService({
    store: new GrantStore(db),
    activity,
    fingerprint: (_agent, key) => {
      const e = registry.getByKey(key);
      return e ? toolFingerprint(e) : null;
    },
  });
  const execute = vi.fn(async (): Promise<CallToolResult> => ({
    content: [{ type: 'text', text: 'done' }],
  }));
  const store = new ApprovalStore(db);
  // Another engine on the same database stands for Airlock started again (requests are durable).
  const newEngine = () =>
    new ApprovalEngine({
      store,
      events: new CoreEvents(),
      activity,
      grants,
      timings: () => ({
        waitMs: 60_000,
        expireMs: 10 * 60_000,
        outcomeWindowMs: 10 * 60_000,
        progressIntervalMs: 1000,
        cancelGraceMs: 60_000,
      }),
      execute,
      toolInfo: () => undefined,
      validate: () => null,
      isPaused: () => false,
      toolFingerprint: (key) => {
        const e = registry.getByKey(key);
        return e ? toolFingerprint(e) : null;
      },
      runFingerprint: (key, args) => {
        const e = registry.getByKey(key);
        return e ? runFingerprint(e, args) : null;
      },
    });
  const engine = newEngine();
  const ask = async (toolKey: string, args: Record<string, unknown>) =>
    (
      await engine.ask({
        agent: 'a',
        toolKey,
        tool: toolKey.split('/')[1]!,
        args,
        effect: async () => 'shown',
        signal: new AbortController().signal,
        noWait: true,
      })
    ).approvalId!;
  const allowOnce = async (id: string) => {
    await engine.decide(id, { kind: 'allow_once' });
    await eventually(() => expect(engine.get(id).state).toBe('done'));
  };
  return { access, remote, engine, execute, grants, ask, allowOnce, restarted: newEngine };
}

const SEND = 'gmail/gmail_send';
const CREATE = 'google-calendar/calendar_create_event';
const mail = { to: ['bob@example.com'], subject: 'Hi', body: 'x' };
const event = { summary: 'Sync', start: '2026-03-01T10:00:00', end: '2026-03-01T10:15:00' };
const changed = /changed since this request was shown/;

describe('Gmail and Calendar: a pending allow is bound to the account this call goes out from', () => {
  it('an unrelated account connected meanwhile: allow once still runs (Gmail and Calendar, with and without `account`)', async () => {
    const h = await harness([writer('work@example.com'), writer('home@example.com')]);
    const ids = [
      await h.ask(SEND, mail),
      await h.ask(SEND, { ...mail, account: 'home@example.com' }),
      await h.ask(CREATE, event),
      await h.ask(CREATE, { ...event, account: 'HOME@example.com' }),
    ];
    h.access.setAccounts([
      writer('work@example.com'),
      writer('home@example.com'),
      writer('club@example.org'),
    ]);
    for (const id of ids) await h.allowOnce(id);
    expect(h.execute).toHaveBeenCalledTimes(4);
  });

  it('an edited allow after an unrelated account connected runs too', async () => {
    const h = await harness([writer('work@example.com')]);
    const id = await h.ask(SEND, mail);
    h.access.setAccounts([writer('work@example.com'), reader('club@example.org')]);
    await h.engine.decide(id, { kind: 'allow_edited', arguments: { ...mail, body: 'y' } });
    await eventually(() => expect(h.execute).toHaveBeenCalledTimes(1));
  });

  it('the default account changed: a call without `account` is refused, one naming its account is not', async () => {
    const h = await harness([writer('work@example.com'), writer('home@example.com')]);
    const bare = await h.ask(SEND, mail);
    const named = await h.ask(SEND, { ...mail, account: 'work@example.com' });
    const bareEvent = await h.ask(CREATE, event);
    // The user made home the default (the roster lists the default first).
    h.access.setAccounts([writer('home@example.com'), writer('work@example.com')]);
    for (const id of [bare, bareEvent])
      await expect(h.engine.decide(id, { kind: 'allow_once' })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(changed),
      });
    await h.allowOnce(named);
    expect(h.execute).toHaveBeenCalledTimes(1);
  });

  it('after a restart the pending request is held to the same card (the binding is stored with it)', async () => {
    const h = await harness([writer('work@example.com'), writer('home@example.com')]);
    const bare = await h.ask(SEND, mail);
    const other = await h.ask(SEND, { ...mail, account: 'work@example.com' });
    const again = h.restarted();
    h.access.setAccounts([writer('home@example.com'), writer('work@example.com')]);
    await expect(again.decide(bare, { kind: 'allow_once' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(changed),
    });
    await again.decide(other, { kind: 'allow_once' });
    await eventually(() => expect(again.get(other).state).toBe('done'));
    expect(h.execute).toHaveBeenCalledTimes(1);
  });

  it('the default account made read-only: a call without `account` goes out from another one, refused', async () => {
    const h = await harness([writer('work@example.com'), writer('home@example.com')]);
    const ids = [await h.ask(SEND, mail), await h.ask(CREATE, event)];
    h.access.setAccounts([reader('work@example.com'), writer('home@example.com')]);
    for (const id of ids)
      await expect(h.engine.decide(id, { kind: 'allow_once' })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(changed),
      });
    expect(h.execute).not.toHaveBeenCalled();
  });

  it('the named account removed or made read-only: refused, for an edited allow too', async () => {
    const h = await harness([writer('work@example.com'), writer('home@example.com')]);
    const removed = await h.ask(SEND, { ...mail, account: 'home@example.com' });
    const readOnly = await h.ask(CREATE, { ...event, account: 'work@example.com' });
    h.access.setAccounts([reader('work@example.com'), writer('club@example.org')]);
    await expect(h.engine.decide(removed, { kind: 'allow_once' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(
      h.engine.decide(readOnly, {
        kind: 'allow_edited',
        arguments: { ...event, account: 'work@example.com', summary: 'Sync 2' },
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(changed) });
    expect(h.execute).not.toHaveBeenCalled();
    expect(h.engine.get(removed).state).toBe('pending');
  });

  it('an edit that drops or changes `account` would go out from an account the card did not show: refused, nothing runs', async () => {
    const h = await harness([writer('work@example.com'), writer('home@example.com')]);
    const send = await h.ask(SEND, { ...mail, account: 'home@example.com' });
    const create = await h.ask(CREATE, { ...event, account: 'home@example.com' });
    // Left out, `account` is the default (work@): the card said home@.
    for (const [id, args] of [
      [send, mail],
      [create, event],
      [send, { ...mail, account: 'work@example.com' }],
    ] as const)
      await expect(
        h.engine.decide(id, { kind: 'allow_edited', arguments: args }),
      ).rejects.toMatchObject({
        code: 'INVALID',
        message: expect.stringMatching(
          /^The edited \w+ would go out from another account than the card showed.*deny this request/s,
        ),
      });
    expect(h.execute).not.toHaveBeenCalled();
    expect(h.engine.get(send).state).toBe('pending');
    // The same account, however written, is what the card showed.
    await h.engine.decide(send, {
      kind: 'allow_edited',
      arguments: { ...mail, account: ' HOME@example.com', body: 'y' },
    });
    await eventually(() => expect(h.execute).toHaveBeenCalledTimes(1));
  });

  it('"always allow" after an unrelated account connected is refused (a grant would reach it unseen), and says allow once still works', async () => {
    const h = await harness([writer('work@example.com')]);
    const id = await h.ask(SEND, mail);
    h.access.setAccounts([writer('work@example.com'), writer('club@example.org')]);
    await expect(
      h.engine.decide(id, { kind: 'always_allow', confirm: true }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/no grant was made.*"Allow once" still runs this call/),
    });
    expect(h.grants.list({ includeInactive: true })).toEqual([]);
    await h.allowOnce(id);
  });
});

describe('a remote tool: allow once is bound to what runs, always allow to all the card showed', () => {
  const KEY = 'srv/transfer';
  const args = { amount: 10, to: 'bob' };

  it('the description (a timestamp), title and hints changed on every listing: allow once and an edited allow run', async () => {
    const h = await harness([]);
    const once = await h.ask(KEY, args);
    const edited = await h.ask(KEY, { amount: 5, to: 'bob' });
    h.remote.change({ description: 'Transfers money. Listed at 12:00:01.' });
    h.remote.change({ title: 'Transfer funds', annotations: { destructiveHint: false } });
    await h.allowOnce(once);
    await h.engine.decide(edited, { kind: 'allow_edited', arguments: { amount: 6, to: 'bob' } });
    await eventually(() => expect(h.execute).toHaveBeenCalledTimes(2));
  });

  it('"always allow" after a description change is refused, makes no grant, and names allow once', async () => {
    const h = await harness([]);
    const id = await h.ask(KEY, args);
    h.remote.change({ description: 'Transfers money. Listed at 12:00:01.' });
    await expect(
      h.engine.decide(id, { kind: 'always_allow', confirm: true }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/"Always allow" would make a grant.*"Allow once" still runs/),
    });
    expect(h.grants.list({ includeInactive: true })).toEqual([]);
    expect(h.engine.get(id).state).toBe('pending');
    await h.allowOnce(id);
  });

  it('"always allow" with nothing changed makes its grant', async () => {
    const h = await harness([]);
    const id = await h.ask(KEY, args);
    await h.engine.decide(id, { kind: 'always_allow', confirm: true });
    expect(h.grants.list()).toHaveLength(1);
  });

  it('the input schema changed (how the server reads the arguments): every allow is refused', async () => {
    const h = await harness([]);
    const id = await h.ask(KEY, args);
    h.remote.change({
      inputSchema: {
        type: 'object',
        properties: { amount: { type: 'number', description: 'In thousands.' }, to: {} },
      },
    });
    for (const decision of [
      { kind: 'allow_once' as const },
      { kind: 'allow_edited' as const, arguments: args },
      { kind: 'always_allow' as const, confirm: true },
    ])
      await expect(h.engine.decide(id, decision)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(/changed since this request was shown \(its input schema/),
      });
    expect(h.execute).not.toHaveBeenCalled();
  });

  it('the server moved to another URL: every allow is refused', async () => {
    const h = await harness([]);
    const id = await h.ask(KEY, args);
    h.remote.url = 'https://elsewhere.example.net/mcp';
    for (const decision of [
      { kind: 'allow_once' as const },
      { kind: 'always_allow' as const, confirm: true },
    ])
      await expect(h.engine.decide(id, decision)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(changed),
      });
    expect(h.execute).not.toHaveBeenCalled();
  });
});
