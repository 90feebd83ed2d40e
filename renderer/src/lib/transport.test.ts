import { describe, expect, it } from 'vitest';
import { ControlError, type ControlApi } from '../../../common/contract';
import {
  pendingHttpTransport,
  redeemOpenCode,
  takeControlToken,
  takeOpenCode,
  withBridgeErrors,
} from './transport';

function fakes(hash: string, stored: string | null = null) {
  const data = new Map<string, string>(stored ? [['airlock.controlToken', stored]] : []);
  const store = {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  } as unknown as Storage;
  const replaced: string[] = [];
  const hist = {
    replaceState: (_s: unknown, _t: string, url: string) => void replaced.push(url),
  } as unknown as History;
  const loc = { hash, pathname: '/', search: '' } as Location;
  return { store, hist, loc, replaced, data };
}

describe('control token from the address', () => {
  it('takes #token=…, keeps it for this tab and removes it from the address', () => {
    const f = fakes('#token=alc_secret');
    expect(takeControlToken(f.loc, f.hist, f.store)).toBe('alc_secret');
    expect(f.data.get('airlock.controlToken')).toBe('alc_secret');
    expect(f.replaced).toEqual(['/#/approvals']);
  });

  it('keeps the route when the token rides along with it', () => {
    const f = fakes('#/popup?token=alc_x');
    expect(takeControlToken(f.loc, f.hist, f.store)).toBe('alc_x');
    expect(f.replaced).toEqual(['/#/popup']);
  });

  it('falls back to the token kept for this tab, and to null without one', () => {
    expect(
      takeControlToken(
        fakes('#/approvals', 'alc_kept').loc,
        fakes('').hist,
        fakes('', 'alc_kept').store,
      ),
    ).toBe('alc_kept');
    const f = fakes('#/approvals');
    expect(takeControlToken(f.loc, f.hist, f.store)).toBeNull();
    expect(f.replaced).toEqual([]);
  });
});

describe('one-time open code from the address (airlock open)', () => {
  /** A server that knows one code, once, and records what it was sent. */
  function server(valid: string) {
    const sent: { url: string; init: RequestInit }[] = [];
    let spent = false;
    const fetchImpl = (async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      const { code } = JSON.parse(String(init.body)) as { code: string };
      if (url.endsWith('/api/open-code')) {
        if (code === valid && !spent) {
          spent = true;
          return Response.json({ token: 'alc_from_code' });
        }
        return Response.json({ error: 'OPEN_CODE_SPENT', message: 'used' }, { status: 410 });
      }
      return Response.json({ result: { ok: true } });
    }) as unknown as typeof fetch;
    return { fetchImpl, sent };
  }

  it('takes #code=…, removes it from the address, keeping the route', () => {
    const f = fakes('#/popup?code=abc_-1');
    expect(takeOpenCode(f.loc, f.hist)).toBe('abc_-1');
    expect(f.replaced).toEqual(['/#/popup']);
    const g = fakes('#code=xyz');
    expect(takeOpenCode(g.loc, g.hist)).toBe('xyz');
    expect(g.replaced).toEqual(['/#/approvals']);
    const none = fakes('#token=alc_t');
    expect(takeOpenCode(none.loc, none.hist)).toBeNull();
    expect(none.replaced).toEqual([]);
  });

  it('trades the code once for the token and keeps it for this tab, as #token= would', async () => {
    const f = fakes('');
    const s = server('good');
    expect(await redeemOpenCode('http://127.0.0.1:1', 'good', f.store, s.fetchImpl)).toBe(
      'alc_from_code',
    );
    expect(f.data.get('airlock.controlToken')).toBe('alc_from_code');
    expect(s.sent[0]).toMatchObject({
      url: 'http://127.0.0.1:1/api/open-code',
      init: { method: 'POST', body: '{"code":"good"}' },
    });
    // Spent: a second try (another tab, a reload of the old address) gets nothing.
    const g = fakes('');
    expect(await redeemOpenCode('http://127.0.0.1:1', 'good', g.store, s.fetchImpl)).toBeNull();
    expect(g.data.size).toBe(0);
    expect(await redeemOpenCode('http://127.0.0.1:1', '', g.store, s.fetchImpl)).toBeNull();
  });

  it('calls wait for the token; a spent code makes every call say so', async () => {
    const s = server('good');
    const ok = pendingHttpTransport('http://h', Promise.resolve('alc_t'), s.fetchImpl);
    expect(await ok.api.getStatus()).toEqual({ ok: true });
    expect(s.sent[0]!.init.headers).toMatchObject({ authorization: 'Bearer alc_t' });
    const spent = pendingHttpTransport('http://h', Promise.resolve(null), s.fetchImpl);
    await expect(spent.api.getStatus()).rejects.toMatchObject({
      code: 'OPEN_CODE_SPENT',
      message: 'This link was already used or has expired — run `airlock open` again.',
    });
  });
});

describe('Electron bridge errors', () => {
  it('turns "[airlock:CODE] message" back into a ControlError with that code', async () => {
    const bridge = {
      decide: () =>
        Promise.reject(
          new Error('[airlock:CONFLICT] This request is already denied; nothing changed.'),
        ),
    } as unknown as ControlApi;
    const err = await withBridgeErrors(bridge)
      .decide('x', { kind: 'allow_once' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ControlError);
    expect(err).toMatchObject({
      code: 'CONFLICT',
      message: 'This request is already denied; nothing changed.',
    });
  });

  it('passes values and other errors through unchanged', async () => {
    const plain = new Error('boom');
    const bridge = {
      getStatus: () => Promise.resolve('ok'),
      listPending: () => Promise.reject(plain),
    } as unknown as ControlApi;
    const api = withBridgeErrors(bridge);
    expect(await api.getStatus()).toBe('ok');
    expect(await api.listPending().catch((e: unknown) => e)).toBe(plain);
  });
});
