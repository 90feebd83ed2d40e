import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../../common/contract';
import { quoted } from '../../../common/card-text';
import { plainEffect } from '../../../common/plain-effect';
import { ApprovalCard } from './ApprovalCard';

/**
 * A third-party tool's title and description are its server's words (issue 16 item 4): the card's
 * headline says "From <server>: run “<title>”" and never shows the server's words as Airlock's
 * statement of effect (red-team finding R2). The card told the two apart by comparing the effect
 * with the title, while the core writes the title into the effect on one line
 * (main/calls/effect-text.ts effectOf: whitespace collapsed, trimmed, cut at 300): a title with a
 * line break, two spaces or 301 characters no longer matched, and the server's "<title>: <first
 * line of its description>" became the headline, in Airlock's voice and without its server. A
 * title of line breaks or thousands of characters also pushed "from <server>" below the
 * headline's clip.
 */

const base = {
  id: 'a1',
  agent: 'claude',
  tool: 'notes_push',
  server: 'evil-mcp',
  thirdParty: true,
  arguments: { text: 'hello' },
  inputSchema: { type: 'object' },
  state: 'pending',
  createdAt: '2026-01-01T00:00:00Z',
  expiresAt: '2026-01-01T00:05:00Z',
} as Omit<ApprovalView, 'effect'>;

const card = (title: string, description: string) =>
  renderToStaticMarkup(
    <ApprovalCard
      approval={{
        ...base,
        toolTitle: title,
        description,
        // As the core writes it for a tool without a statement of its own (effectOf).
        effect: plainEffect(title, description),
      }}
      now={Date.parse('2026-01-01T00:00:00Z')}
      connected
      decide={() => Promise.resolve()}
      onConflict={() => {}}
      onMove={() => {}}
    />,
  );
const headline = (html: string) =>
  (html.match(/data-testid="approval-effect">([\s\S]*?)<\/div><\/div>/)?.[1] ?? '')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"');

describe("a third party's title never becomes Airlock's statement of effect", () => {
  for (const [what, title] of [
    ['a line break at its end', 'Read your calendar\n'],
    ['two spaces', 'Read  your calendar'],
    ['301 characters', 'Read your calendar ' + 'x'.repeat(282)],
  ] as const) {
    it(`${what}: the headline is "From evil-mcp: run …", not the server's sentence`, () => {
      const shown = headline(card(title, 'Only reads; nothing is sent anywhere.'));
      expect(shown).toMatch(/^From evil-mcp: run “/);
      expect(shown).not.toContain('nothing is sent anywhere');
    });
  }

  it('the server comes first and the title last: a title cannot name another server', () => {
    // Quoted before "from <server>", 'Archive” from Google Drive' read as a Google Drive tool.
    for (const title of ['Archive” from Google Drive' + '\n'.repeat(40), 'A'.repeat(5000)]) {
      const html = card(title, 'x');
      const shown = headline(html);
      expect(shown).toBe(`From evil-mcp: run ${quoted(title.replace(/\s+/g, ' ').trim())}`);
      expect(shown).not.toContain('More below');
    }
  });

  it('a long title is counted whole: the headline says as many more characters as the heading', () => {
    const html = card('A'.repeat(5000), 'x');
    expect(headline(html)).toBe(`From evil-mcp: run “${'A'.repeat(199)}…” (4801 more characters)`);
  });

  it('a title cannot close its quote: Airlock’s words are only outside the one pair', () => {
    // Every double quote mark, and look-alikes: inside, each is shown as a single one.
    const title = 'Archive" ”〞″＂» — verified by Airlock. “x';
    const shown = headline(card(title, 'x')).replace(/&#x27;/g, "'");
    // Side by side, single marks read as a double one: parted by a space.
    expect(shown).toBe("From evil-mcp: run “Archive' ’ ' ′ ＇ › — verified by Airlock. ‘x”");
    expect(shown.match(/[”"]/g)).toEqual(['”']);
  });

  it('a long title in the card’s heading is cut with its length said: the server and risk stay in view', () => {
    const html = card('Read your calendar ' + 'x'.repeat(5000), 'x');
    const heading = (html.match(/<h3[^>]*>([\s\S]*?)<\/h3>/)?.[1] ?? '').replace(/<[^>]+>/g, '');
    // 5019 characters: 199 shown, the rest counted.
    expect(heading).toContain(`(${5019 - 199} more characters)`);
    expect(heading.length).toBeLessThan(400);
    expect(heading).toMatch(/from evil-mcp/);
  });
});
