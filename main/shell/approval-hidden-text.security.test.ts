import { describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { notifierWorldPerTest } from '../../test-support/notifier-world.js';
import { dialog, Notification, platformRules } from '../../test-support/fake-electron.js';
import { ApprovalDialog, CUT_DIALOG_BUTTONS } from './approval-dialog.js';
import { ApprovalNotifier } from './approval-notifier.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

/**
 * A hostile agent hides text in a call it wants allowed from a native prompt (audit, issue 17
 * item 8). Two ways that used to work:
 *
 * - Invisible carriers. Variation selectors (U+FE00–FE0F, U+E0100–E01EF) and tag characters
 *   (U+E0000–E007F) draw as nothing, yet carry any text: "See you at noon 🙂" followed by a
 *   secret spelled in selectors reads as the greeting alone. The notification's check knew bidi
 *   and zero-width characters but not these, so it offered Allow for a message that sends the
 *   secret along.
 * - The native dialog (`shell.approvalStyle: 'dialog'`) checked only the length of what it
 *   showed: a bidi override in the arguments was drawn as it acts (`moc.elpmaxe@\u202Ebob`
 *   reads "bob@example.com"), and Allow once was offered on it.
 * - Look-alike letters: `ceo@exаmple.com` with a Cyrillic а is another domain, drawn exactly like
 *   example.com by both prompts, each of which offered Allow.
 *
 * Allow must exist only where what is shown is what runs; otherwise the prompt can only open the
 * window (which names each hidden character) or deny.
 */
const setup = notifierWorldPerTest();

/** `secret` spelled in variation selectors, one per byte (VS1–16 for 0–15, VS17–256 for the rest). */
function inSelectors(secret: string): string {
  return [...Buffer.from(secret)]
    .map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16))
    .join('');
}
/** `secret` spelled in tag characters (U+E0000 + ASCII). */
const inTags = (secret: string) =>
  [...secret].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');

const SECRET = 'sk-live-7f3a9c';

describe('a notification offers no Allow for text no one can see', () => {
  for (const [carrier, hide] of [
    ['variation selectors', inSelectors],
    ['tag characters', inTags],
  ] as const) {
    it(`a secret carried in ${carrier}: no buttons, and the call stays pending`, async () => {
      const { app, request } = await setup();
      const to = `bob@example.com${hide(SECRET)}`;
      expect(to.length).toBeLessThan(60); // short enough to be "shown whole" by length alone
      const { approval } = await request({ to });
      const n = Notification.instances.at(-1)!;
      expect(n.options.actions).toEqual([]);
      expect(n.options.body).toMatch(/see the whole request in Airlock/);
      n.clickAction(0);
      await new Promise((r) => setImmediate(r));
      expect((await app.control.getApproval(approval.id)).state).toBe('pending');
      await app.control.decide(approval.id, { kind: 'deny' });
    });
  }

  it('a look-alike address (a Cyrillic а in example.com): no buttons', async () => {
    const { app, request } = await setup();
    const { approval } = await request({ to: 'ceo@ex\u0430mple.com' });
    expect(Notification.instances.at(-1)!.options.actions).toEqual([]);
    expect((await app.control.getApproval(approval.id)).state).toBe('pending');
    await app.control.decide(approval.id, { kind: 'deny' });
  });

  it('a clean call of the same shape still gets Allow (the check is not vacuous)', async () => {
    const { app, request } = await setup();
    const { approval } = await request({ to: 'bob@example.com' });
    expect(Notification.instances.at(-1)!.options.actions?.length).toBeGreaterThan(0);
    await app.control.decide(approval.id, { kind: 'deny' });
  });
});

describe('the native dialog offers no Allow for text that hides or reorders what it says', () => {
  async function dialogWorld() {
    // Windows (Linux alike): a parentless box; macOS uses a sheet (approval-notifier.test.ts).
    platformRules.platform = 'win32';
    const openApproval = vi.fn();
    const w = await setup({ shell: { approvalStyle: 'dialog' } });
    w.notifier.stop();
    w.notifier = new ApprovalNotifier({
      control: w.app.control,
      events: w.app.events,
      approvalStyle: () => 'dialog',
      openApproval: vi.fn(),
      dialog: new ApprovalDialog({ control: w.app.control, openApproval, platform: 'win32' }),
    });
    await w.notifier.start();
    return { ...w, openApproval };
  }

  for (const [what, to] of [
    ['a right-to-left override', 'moc.elpmaxe@\u202Ebob'],
    ['a secret in variation selectors', `bob@example.com${inSelectors(SECRET)}`],
    ['a secret in tag characters', `bob@example.com${inTags(SECRET)}`],
    ['a look-alike address (a Cyrillic а in example.com)', 'ceo@ex\u0430mple.com'],
  ] as const) {
    it(`${what}: only "Open in Airlock" or "Deny"; the first answer opens the window, nothing is allowed`, async () => {
      const { app, request, openApproval } = await dialogWorld();
      dialog.answers.push(0); // the first button: "Allow once" before the fix
      const { approval } = await request({ to });
      await eventually(() => expect(openApproval).toHaveBeenCalledWith(approval.id));
      const shown = dialog.shown.at(-1)!;
      expect(shown.buttons).toEqual([...CUT_DIALOG_BUTTONS]);
      expect(shown).toMatchObject({ cancelId: 1, defaultId: 1 });
      expect(shown.detail).toMatch(/characters that hide or reorder text, or letters imitating/);
      expect((await app.control.getApproval(approval.id)).state).toBe('pending');
      await app.control.decide(approval.id, { kind: 'deny' });
    });
  }

  it('a clean call still gets Allow once from the dialog (the check is not vacuous)', async () => {
    const { app, request } = await dialogWorld();
    dialog.answers.push(2); // Deny
    const { approval } = await request({ to: 'bob@example.com' });
    await eventually(async () =>
      expect((await app.control.getApproval(approval.id)).state).toBe('denied'),
    );
    expect(dialog.shown.at(-1)!.buttons).toEqual(['Allow once', 'Always allow…', 'Deny']);
  });

  // Review of the audit: ORDINARY and HIDDEN_AFTER_EMOJI are defined below (hoisted consts are
  // read when the tests run).
  it('ordinary non-Latin and emoji calls still get Allow once; hidden text after an emoji does not', async () => {
    const { app, request } = await dialogWorld();
    for (const [what, args] of [...ORDINARY, ...HIDDEN_AFTER_EMOJI]) {
      // No scripted answer: the box stays open until the deny below closes it.
      const { approval } = await request(args);
      await eventually(() => expect(dialog.shown.at(-1)?.detail).toContain(approval.id));
      const allowed = (dialog.shown.at(-1)!.buttons as string[])[0] === 'Allow once';
      expect([what, allowed]).toEqual([what, ORDINARY.some(([w]) => w === what)]);
      await app.control.decide(approval.id, { kind: 'deny' });
    }
  });
});

/**
 * The same checks must not take Allow from ordinary calls (review of the audit): the prompts read
 * the arguments as compact JSON, one "word" with no spaces, so any Cyrillic or Greek value (a
 * Russian subject, a Greek city) sat in one word with the Latin argument names and was called a
 * look-alike; and every emoji drawn in colour (❤️ is U+2764 U+FE0F) or joined (👨‍👩‍👧, ZWJ) holds a
 * default-ignorable code point. Hidden text after an emoji is still caught (first block above).
 */
// count_send takes one argument, `to` (test-support/harness.ts): each text goes there.
const ORDINARY: [string, Record<string, unknown>][] = [
  ['a Russian name', { to: 'Иван Петров' }],
  ['a Greek city', { to: 'Αθήνα' }],
  ['a Japanese word and a Cyrillic name', { to: '会議 Иван' }],
  ['an emoji in colour (U+FE0F)', { to: 'bob ❤️' }],
  ['an emoji ZWJ sequence', { to: 'bob 👨‍👩‍👧' }],
];
const HIDDEN_AFTER_EMOJI: [string, Record<string, unknown>][] = [
  ['a secret in selectors after ❤️', { to: `bob ❤️${inSelectors('k9')}` }],
  ['a stray ZWJ after an emoji', { to: 'bob 🙂\u200Dx' }],
  ['a Cyrillic letter inside a Latin word', { to: 'ceo@ex\u0430mple.com' }],
  ['a braille blank (U+2800) drawn as a space', { to: 'bob@example.com\u2800' }],
];

describe('ordinary non-Latin and emoji calls keep Allow in a notification', () => {
  for (const [what, args] of ORDINARY) {
    it(`${what}: Allow is offered`, async () => {
      const { app, request } = await setup();
      const { approval } = await request(args);
      expect(Notification.instances.at(-1)!.options.actions?.length).toBeGreaterThan(0);
      await app.control.decide(approval.id, { kind: 'deny' });
    });
  }
  for (const [what, args] of HIDDEN_AFTER_EMOJI) {
    it(`${what}: still no Allow`, async () => {
      const { app, request } = await setup();
      const { approval } = await request(args);
      expect(Notification.instances.at(-1)!.options.actions).toEqual([]);
      await app.control.decide(approval.id, { kind: 'deny' });
    });
  }
});
