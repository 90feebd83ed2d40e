import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { connectClient } from '../../test-support/harness.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { startRemoteApp } from '../../test-support/remote-app.js';
import { relayLabel, serverWords } from '../tools/relay-label.js';
import { PROGRESS_MESSAGE_CHARS, progressMessage } from './server-progress.js';

/**
 * A server's progress message had no bound: one notification carried megabytes to the agent. It
 * is cut to PROGRESS_MESSAGE_CHARS (1,000, the least a result may be cut to) by the results'
 * own cutter — whole characters, the cut said — in both eras.
 */
const cleanup = cleanupAfterEach();
/** No lone surrogate (String#isWellFormed, ES2024, outside this build's lib): `u` pairs them. */
const wellFormed = (s: string) => !/\p{Cs}/u.test(s);

describe('a progress message past the bound', () => {
  it.each(['legacy', 'auto'] as const)(
    'is cut at whole characters, and says so (%s agent)',
    async (mode) => {
      // One odd unit, then astral characters (two UTF-16 units each): the bound falls inside one.
      const huge = 'a' + '𝄞'.repeat(1_000_000);
      const up = new FakeUpstream({
        name: 'svc',
        tools: [
          {
            name: 'loud',
            annotations: { readOnlyHint: true },
            run: async (_args, ctx) => {
              await ctx.progress(1, 2, huge);
              await ctx.progress(2, 2, 'short');
              return { content: [{ type: 'text', text: 'loud ran' }] };
            },
          },
        ],
      });
      await up.start();
      cleanup.push(() => up.stop());
      const t = await startRemoteApp();
      cleanup.push(() => t.stop());
      await t.app.control.addRemote({ name: 'svc', url: up.url });
      const c = await connectClient(t.started.mcpUrl, t.token, mode);
      cleanup.push(() => c.close());
      const seen: { progress: number; message?: string }[] = [];
      await c.callTool(
        { name: 'svc__loud', arguments: {} },
        { onprogress: (p) => void seen.push(p) },
      );
      const mine = seen.filter((p) => p.message?.startsWith(relayLabel('svc')));
      expect(mine.map((p) => p.progress)).toEqual([1, 2]);
      const cut = mine[0]!.message!;
      const kept = 'a' + '𝄞'.repeat((PROGRESS_MESSAGE_CHARS - 2) / 2);
      // The kept words are shown as the server's, as every progress message is (serverWords: a
      // run of 500 symbols is a lead-in past its bound, so it is quoted); this test is the cut's.
      expect(cut).toBe(
        `${relayLabel('svc')} ${serverWords(kept)} [Airlock cut ${huge.length - kept.length} characters from this progress message to stay within ${PROGRESS_MESSAGE_CHARS} characters.]`,
      );
      expect(wellFormed(cut)).toBe(true);
      expect(mine[1]!.message).toBe(`${relayLabel('svc')} short`);
    },
    60_000,
  );

  it('any message: at most the bound of the server’s words, whole characters, a prefix of them', () => {
    const unit = fc.constantFrom('a', 'é', '𝄞', '😀', ' ', 'z', '中');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 1_400 }), (units) => {
        const message = 'x' + units.join('');
        const out = progressMessage('svc', message);
        const head = `${relayLabel('svc')} `;
        expect(out.startsWith(head)).toBe(true);
        const note =
          / \[Airlock cut (\d+) characters from this progress message to stay within 1000 characters\.\]$/.exec(
            out,
          );
        const words = note ? out.slice(head.length, note.index) : out.slice(head.length);
        expect(words.length).toBeLessThanOrEqual(PROGRESS_MESSAGE_CHARS);
        expect(wellFormed(words)).toBe(true);
        expect(message.startsWith(words)).toBe(true);
        // Cut exactly when past the bound, and by what was left out.
        expect(Boolean(note)).toBe(message.length > PROGRESS_MESSAGE_CHARS);
        if (note) expect(Number(note[1])).toBe(message.length - words.length);
      }),
    );
  });
});
