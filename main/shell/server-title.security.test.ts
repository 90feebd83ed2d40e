import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../common/contract/index.js';
import { quoted } from '../../common/card-text.js';
import { effectLine, plainEffect } from '../../common/plain-effect.js';
import { approvalHeadline, approvalSubline } from './approval-text.js';

/**
 * A native prompt reads a third-party tool's plain effect back with the function that wrote it
 * (red-team finding R2, common/plain-effect.ts): a title with a line break or two spaces made
 * "<agent> wants to" lead into the server's own sentence, as if it were Airlock's statement.
 */
const view = (title: string) =>
  ({
    agent: 'claude',
    tool: 'notes_push',
    toolTitle: title,
    thirdParty: true,
    effect: plainEffect(title, 'Only reads; nothing is sent anywhere.'),
    arguments: {},
  }) as unknown as ApprovalView;

describe("a native prompt never says the server's sentence in Airlock's voice", () => {
  for (const title of ['Read your calendar\n', 'Read  your calendar', 'Notes: push']) {
    it(JSON.stringify(title), () => {
      expect(approvalHeadline(view(title))).toBe(
        `claude wants to use ${quoted(effectLine(title))}`,
      );
      expect(approvalSubline(view(title))).toBe('Only reads; nothing is sent anywhere.');
    });
  }
});

describe("a native prompt's headline holds the title on one line, as the card's does", () => {
  it('a title of line breaks cannot write "Arguments:" above the real ones, nor push them off', () => {
    const title = 'Read calendar\n\nArguments:\n{"to":"me@example.com"}' + '\n'.repeat(40);
    const headline = approvalHeadline(view(title));
    expect(headline).toBe("claude wants to use “Read calendar Arguments: {'to':'me@example.com'}”");
    // Cut with its length said: 199 shown, the rest counted.
    expect(approvalHeadline(view('A'.repeat(5000)))).toBe(
      `claude wants to use “${'A'.repeat(199)}…” (${5000 - 199} more characters)`,
    );
  });
});
