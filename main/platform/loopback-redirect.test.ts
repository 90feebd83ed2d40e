import { afterEach, describe, expect, it } from 'vitest';
import { LoopbackListener } from './loopback-redirect.js';

/** The 127.0.0.1 redirect listener (issue 10): state check, one callback, no keep-alive, HTML escaped. */
const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

describe('LoopbackListener', () => {
  it('accepts exactly one callback with our state; everything else gets an error page', async () => {
    const got: URLSearchParams[] = [];
    const l = await LoopbackListener.open({
      state: 's3cret-state',
      onCallback: async (p) => (
        got.push(p),
        { ok: true, title: 'Signed in', message: '<b>x</b> & done' }
      ),
    });
    cleanup.push(() => l.close());
    expect(l.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    expect((await fetch(`${l.redirectUri}?code=c&state=wrong`)).status).toBe(400);
    expect((await fetch(`${l.redirectUri}?code=c`)).status).toBe(400);
    expect((await fetch(l.redirectUri.replace('/callback', '/other'))).status).toBe(404);
    expect((await fetch(l.redirectUri, { method: 'POST' })).status).toBe(404);
    expect(got).toHaveLength(0);

    const ok = await fetch(`${l.redirectUri}?code=c1&state=s3cret-state`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('connection')).toBe('close');
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const html = await ok.text();
    expect(html).toContain('&#60;b&#62;x&#60;/b&#62; &#38; done');
    expect(html).not.toContain('<b>x</b>');
    expect((await fetch(`${l.redirectUri}?code=c2&state=s3cret-state`)).status).toBe(409);
    expect(got.map((p) => p.get('code'))).toEqual(['c1']);
  });

  it('uses the preferred port when free, another one when taken', async () => {
    const a = await LoopbackListener.open({
      state: 'a',
      onCallback: async () => ({ ok: true, title: '', message: '' }),
    });
    cleanup.push(() => a.close());
    const b = await LoopbackListener.open({
      state: 'b',
      preferredPort: a.port,
      onCallback: async () => ({ ok: true, title: '', message: '' }),
    });
    cleanup.push(() => b.close());
    expect(b.port).not.toBe(a.port);
    const port = b.port;
    b.close();
    const c = await LoopbackListener.open({
      state: 'c',
      preferredPort: port,
      onCallback: async () => ({ ok: true, title: '', message: '' }),
    });
    cleanup.push(() => c.close());
    expect(c.port).toBe(port);
  });
});
