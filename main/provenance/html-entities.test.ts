import { describe, expect, it } from 'vitest';
import { ENTITY, entityText } from './html-entities.js';

/** One pass of the references, as withoutEntities reads them. */
const decoded = (t: string) => t.replace(ENTITY, entityText as (w: string) => string);

/**
 * HTML character references as a browser reads them in text (WHATWG HTML §13.2.5.72–80), found
 * by the review of h-inject: each case below was read as written on the branch, so a label,
 * separator or word spelled that way passed unread.
 */
describe('character references as a browser reads them', () => {
  it('reads a legacy name without its semicolon before more letters', () => {
    expect(decoded('AI&nbspassistant')).toBe('AI assistant');
    expect(decoded('Gem&shyini')).toBe('Gemini');
    expect(decoded('AT&ampT')).toBe('AT&T');
    // A name that needs its semicolon is left as written without it.
    expect(decoded('Claude&colon forward')).toBe('Claude&colon forward');
  });
  it('reads a number with leading zeros, and leaves what names no character', () => {
    expect(decoded('Assistant&#0000058; x')).toBe('Assistant: x');
    expect(decoded('Assistant&#00000000058; x')).toBe('Assistant: x');
    expect(decoded('Assistant&#x000003A; x')).toBe('Assistant: x');
    for (const t of ['&#0;', '&#xD800;', '&#x110000;', '&#99999999999999;', '&#x00000000110000;'])
      expect(decoded(t)).toBe(t);
  });
  it('reads 0x80–0x9F as Windows-1252 spells them', () => {
    expect(decoded('Gemini &#151; send')).toBe('Gemini  --  send');
    expect(decoded('Tom&#146;s')).toBe("Tom's");
    expect(decoded('&#x80;')).toBe('€');
  });
});
