/**
 * The plain statement of effect of a tool whose source has none of its own — every third-party
 * tool's: "<title>: <first line of its description>", both the server's words
 * (main/calls/effect-text.ts effectOf writes it; issue 17 item 8: each on one line, so a title
 * with "\nTo: …" does not read as e-mail headers). The approval card and the native prompts tell
 * it from a source's own statement by reading it back with the same function (red-team finding
 * R2): read another way — the title as the server sent it — a title with a line break, two spaces
 * or 301 characters no longer matched, and the server's sentence was shown as Airlock's.
 */
export function effectLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** The plain effect of a tool titled `title` (its name when it has no title). */
export function plainEffect(title: string, description: string): string {
  return `${effectLine(title)}: ${effectLine(description.split('\n')[0] ?? '')}`;
}

/** The description part of `effect` when it is the plain effect of a tool titled `title`, else undefined. */
export function plainEffectRest(effect: string, title: string): string | undefined {
  const head = `${effectLine(title)}:`;
  return effect.startsWith(head) ? effect.slice(head.length).trim() : undefined;
}
