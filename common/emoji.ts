/**
 * Emoji sequences, read by Unicode's own list rather than a hand one: `\p{RGI_Emoji}` (a property
 * of strings, ECMAScript 2024 `v` flag; UTS #51 §ED-27 "RGI emoji set") matches exactly the
 * sequences recommended for interchange — ❤️ (U+2764 U+FE0F), 👨‍👩‍👧 (joined by ZWJ), flags, keycaps,
 * the three subdivision flags spelt in tag characters. Their U+FE0F and ZWJ are drawn, as part of
 * the picture; a selector, joiner or tag outside such a sequence is not, and carries hidden text
 * (common/lookalike.ts's neighbours: main/shell/approval-text.ts, renderer reveal.ts).
 *
 * Built with the constructor: the code is compiled for ES2023, whose regex literals lack `v`
 * (Node 22 and Electron's Chromium have it).
 */
export const RGI_EMOJI = new RegExp('\\p{RGI_Emoji}', 'gv');

/** `text` with every RGI emoji sequence taken out, for checks on what is left. */
export function withoutEmoji(text: string): string {
  return text.replace(RGI_EMOJI, '');
}
