import { describe, expect, it } from 'vitest';
import { encodingsOf } from './form-encodings.js';
import { spelledReadings } from './call-spellings.js';

/** The encodings made at index time, checked against values written from the RFCs by hand. */
describe('encodingsOf', () => {
  const forms = encodingsOf('482913');
  it.each([
    ['base64 (RFC 4648 §4)', 'NDgyOTEz'],
    ['base32 (RFC 4648 §6)', 'GQ4DEOJRGM======'],
    ['hex', '343832393133'],
    ['hex bytes after 0x', '0x34 0x38 0x32 0x39 0x31 0x33'],
    ['\\x escapes', '\\x34\\x38\\x32\\x39\\x31\\x33'],
    ['HTML decimal references', '&#52;&#56;&#50;&#57;&#49;&#51;'],
    ['backwards', '319284'],
    ['digits as words', 'four eight two nine one three'],
    ['base64 backwards (two)', 'zETOygDN'],
    ['hex of base64 (two)', '4e4467794f54457a'],
    ['base64 of hex (two)', 'MzQzODMyMzkzMTMz'],
  ])('%s', (_, text) => expect(forms).toContain(text));
});

describe('spelledReadings (the call side)', () => {
  it('undoes escapes around an encoding the index has no form for', () => {
    expect(spelledReadings('x &#x34;&#x38;&#x32; y').join()).toContain('482');
    expect(spelledReadings('=34=38=32=39 end').join()).toContain('4829');
  });
  it('decodes printable hex bytes apart by separators', () => {
    expect(spelledReadings('send 34|38|32|39|31|33 now').join()).toContain('482913');
  });
  it('leaves dates, amounts and phone numbers alone (no printable bytes)', () => {
    expect(spelledReadings('on 2024-11-03 at 12 34 56, call 555 0199, total 1,234.56')).toEqual([]);
  });
});
