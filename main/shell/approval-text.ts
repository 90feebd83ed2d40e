import { codeUnits, cutText, textPrefix } from '../../common/text-cut.js';
import type { ApprovalView } from '../../common/contract/index.js';
import { quotedUnless } from '../../common/card-text.js';
import { RGI_EMOJI, withoutEmoji } from '../../common/emoji.js';
import { mixedScriptCount, mixedScriptWords } from '../../common/lookalike.js';
import { plainEffectRest } from '../../common/plain-effect.js';
import { hasStackedMarks } from '../../common/stacked-marks.js';

/**
 * The words of a native approval prompt: "Claude Code wants to send an
 * e-mail to bob@example.com" (issue 9, item 3). A source's own
 * describeEffect gives a verb phrase; the generic fallback
 * ("<tool>: <description>", main/app/effect-text.ts effectOf) does not,
 * so it reads "… wants to use <tool>" with the description below.
 */
function isGenericEffect(a: ApprovalView): boolean {
  return genericRest(a) !== undefined;
}

/**
 * The description part of a plain effect, read back with the function that wrote it
 * (common/plain-effect.ts; red-team finding R2: a title with a line break or two spaces read
 * as the source's own sentence, and "<agent> wants to" led into the server's words).
 */
function genericRest(a: ApprovalView): string | undefined {
  return plainEffectRest(a.effect, a.toolTitle ?? a.tool) ?? plainEffectRest(a.effect, a.tool);
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

export function approvalHeadline(a: ApprovalView): string {
  // The title on one line and quoted, as the card's headline shows it (common/card-text.ts
  // quoted): a title of line breaks and "Arguments: {…}" wrote a message box's own lines above
  // the real arguments, which it pushed out of sight (common/plain-effect.ts); on one line but
  // bare it still read as the prompt's words ("… wants to use Read calendar Arguments: {…}").
  // Quoted, nothing in it closes the quote, and a long one is cut with its length said. A tool's
  // name alone (one word) stands bare.
  if (isGenericEffect(a) || !a.effect.trim())
    return `${a.agent} wants to use ${quotedUnless(
      (a.toolTitle ?? a.tool).replace(/\s+/g, ' ').trim(),
      () => true,
    )}`;
  return `${a.agent} wants to ${lowerFirst(a.effect.trim().replace(/\.$/, ''))}`;
}

/** A second line: the tool's description (generic case) or the tool's name. */
export function approvalSubline(a: ApprovalView): string {
  const rest = genericRest(a);
  if (rest !== undefined) return rest || a.tool;
  return `via ${a.tool}`;
}

/** The exact arguments the call will run with, for a dialog's details. */
export function approvalArguments(a: ApprovalView): string {
  return JSON.stringify(a.editedArguments ?? a.arguments, null, 2);
}

/**
 * Characters that change how text reads without being seen: controls,
 * bidi overrides and isolates (U+202E shows "…0009 :dna" as "and: 9000"),
 * zero-width characters, no-break spaces, other format characters (Cf) and private-use ones
 * (Co, drawn as whatever a font puts there), and every code point Unicode says a renderer shows
 * nothing for (Default_Ignorable_Code_Point; UAX #44, PropList.txt): variation selectors
 * (U+FE00–FE0F, U+E0100–E01EF) and tag characters (U+E0000–E007F) carry whole texts — a secret
 * among them — that no one sees. A call containing any is never "fully shown" in a notification
 * or a native dialog (issue 17, items 6 and 8); the window names each one (renderer reveal.ts).
 * Also blanks that are letters or symbols, not spaces: U+2800 (braille blank) and U+1D159 (a null
 * notehead). Checked with emoji sequences taken out (common/emoji.ts): ❤️'s U+FE0F is drawn.
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u00a0\u00ad\u061c\u115f\u1160\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\ufff9-\ufffb\u2800\u{1d159}\p{Cf}\p{Co}\p{Default_Ignorable_Code_Point}]/u;

/**
 * True when `text` holds a character that hides or reorders what it says (INVISIBLE), more
 * combining marks on one character than writing uses (they paint over the lines around:
 * common/stacked-marks.ts), or a word
 * mixing Latin letters with look-alikes from another script (`ceo@exаmple.com`, Cyrillic а:
 * common/lookalike.ts), which a prompt draws exactly like the word it imitates.
 */
export function hidesText(text: string): boolean {
  return (
    INVISIBLE.test(withoutEmoji(text)) || stacksMarks(text) || mixedScriptWords(text).count > 0
  );
}

/**
 * Marks stacked beyond writing (common/stacked-marks.ts), read as the card reads them: an emoji
 * sequence is one picture, a character of its own — taken out, it would join the marks on either
 * side into one run the card does not see.
 */
function stacksMarks(text: string): boolean {
  return hasStackedMarks(text.replace(RGI_EMOJI, '\ufffc'));
}

/**
 * The same for a call's arguments: hidden characters in their compact JSON (which escapes every
 * control character inside a value, so a value's line breaks pass), look-alike words in each name
 * and string as the card reads them (mixedScriptCount), not in the JSON run together.
 */
export function argumentsHideText(args: unknown): boolean {
  const json = JSON.stringify(args) ?? '';
  return INVISIBLE.test(withoutEmoji(json)) || stacksMarks(json) || mixedScriptCount(args) > 0;
}

/** Longest call text (tool + compact JSON arguments) a notification shows whole on every OS. */
export const MAX_NOTIFIED_CALL = 120;

/**
 * The whole call on one line — `gmail_send {"to":"bob@example.com"}` — or
 * null when it cannot be shown whole in a notification: too long, or
 * holding characters that hide what it says. Only a call shown whole may
 * be allowed from a notification (issue 17, item 6).
 */
export function notifiableCall(a: ApprovalView): string | null {
  const args = a.editedArguments ?? a.arguments;
  const text = `${a.tool} ${JSON.stringify(args)}`;
  if (text.length > MAX_NOTIFIED_CALL || hidesText(a.tool) || argumentsHideText(args)) return null;
  return text;
}

/** Longest title a notification gets: "<agent> wants to <effect>", the effect possibly the server's words. */
export const MAX_NOTIFIED_TITLE = 80;
/** Longest line of the server's words (the tool's description) under the call. */
export const MAX_NOTIFIED_SERVER_TEXT = 80;

/**
 * What an approval notification says (issue 32, item 6). The call comes first in the body —
 * Windows toasts and macOS banners cut long text, and what they keep must be the call — and the
 * server's words (its tool description, which also feeds the title) come after it, capped. Allow
 * is offered only when *all* of it passes the checks the call line passes: the call shown whole
 * (notifiableCall), the title whole (not cut at MAX_NOTIFIED_TITLE), no character in the title or
 * the server's line that hides or reorders text (INVISIBLE, which also rules out line breaks), and
 * the core would take it now.
 */
export function notificationText(a: ApprovalView): { title: string; body: string; allow: boolean } {
  const headline = approvalHeadline(a);
  const title = cutText(headline, MAX_NOTIFIED_TITLE);
  const server = cutText(approvalSubline(a), MAX_NOTIFIED_SERVER_TEXT);
  const call = notifiableCall(a);
  if (!call)
    return { title, body: `Click to see the whole request in Airlock.\n${server}`, allow: false };
  // Nor when the title, Airlock's statement of what the call does, had to be cut: what is left
  // may say less than the call does ("Change the event (…), this…" of "this and all following
  // occurrences"), and a cut inside a quoted value drops its closing quote (common/card-text.ts
  // quoted), the one mark that says where someone else's words end.
  const clean = title === headline && !hidesText(title) && !hidesText(server);
  // Nor when the core would refuse it now (the tool changed since the request was made,
  // ApprovalView.refused): a click opens the window, which says why.
  if (a.refused?.allow_once)
    return { title, body: `${call}\nAllow is not possible now: click to see why.`, allow: false };
  return { title, body: `${call}\n${server}`, allow: clean };
}

/** Most of the arguments a parentless native dialog shows; longer pushes its buttons off-screen. */
export const MAX_DIALOG_ARGUMENTS = { chars: 1200, lines: 24 };

/** The arguments for a dialog's details, cut to a size that keeps its buttons on screen. */
export function dialogArguments(a: ApprovalView): string {
  const full = approvalArguments(a);
  const lines = full.split('\n');
  let text = lines.slice(0, MAX_DIALOG_ARGUMENTS.lines).join('\n');
  if (text.length > MAX_DIALOG_ARGUMENTS.chars)
    text = textPrefix(text, MAX_DIALOG_ARGUMENTS.chars, codeUnits);
  if (text === full) return full;
  return `${text}\n… (${full.length - text.length} more characters — open Airlock to see all)`;
}
