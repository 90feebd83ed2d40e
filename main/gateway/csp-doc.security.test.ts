import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { serveStatic, UI_CSP } from './static-files.js';
import { tempDir } from '../../test-support/temp-dir.js';

/** Issue 17, item 8: the CSP docs/security.md states is the one actually sent. */
describe('Content Security Policy', () => {
  it('docs/security.md quotes UI_CSP exactly', () => {
    const doc = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
    expect(doc).toContain('\n' + UI_CSP + '\n');
  });

  it('every UI response carries UI_CSP', async () => {
    const root = tempDir('airlock-ui-');
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    const headers: Record<string, string> = {};
    const res = {
      writeHead: (_status: number, h: Record<string, string>) => Object.assign(headers, h),
      end: () => {},
    } as unknown as ServerResponse;
    expect(await serveStatic(root, '/', res)).toBe(true);
    expect(headers['content-security-policy']).toBe(UI_CSP);
  });
});
