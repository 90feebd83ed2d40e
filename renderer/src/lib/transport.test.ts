import { describe, expect, it } from 'vitest';
import { ControlError, type ControlApi } from '../../../common/contract';
import {
  OPEN_CODE_FAILED,
  pendingHttpTransport,
  redeemOpenCode,
  startFromAddress,
  takeControlToken,
  takeOpenCode,
  withBridgeErrors,
} from './transport';

function fakes(hash: string, stored: string | null = null) {
  const data = new Map<string, string>(stored ? [['airlock.controlToken', stored]] : []);
  const store = {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
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

const SPENT = {
  code: 'OPEN_CODE_SPENT',
  message: 'This link was already used or has expired — run `airlock open` again.',
};

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
    await expect(
      redeemOpenCode('http://127.0.0.1:1', 'good', g.store, s.fetchImpl),
    ).rejects.toMatchObject(SPENT);
    expect(g.data.size).toBe(0);
    await expect(
      redeemOpenCode('http://127.0.0.1:1', '', g.store, s.fetchImpl),
    ).rejects.toMatchObject(SPENT);
  });

  it("only the route's 410 OPEN_CODE_SPENT says the link was used; other failures say what they were", async () => {
    const answer = (res: () => Response | Promise<Response>) =>
      (async () => res()) as unknown as typeof fetch;
    const redeem = (fetchImpl: typeof fetch) => {
      const f = fakes('');
      return redeemOpenCode('http://h', 'c', f.store, fetchImpl).catch((e: unknown) => {
        expect(f.data.size).toBe(0);
        return e;
      });
    };
    const failed = (message: string) => ({ code: OPEN_CODE_FAILED, message });
    expect(
      await redeem(answer(() => Promise.reject(new TypeError('Failed to fetch')))),
    ).toMatchObject(
      failed(
        'Could not reach Airlock to open this link (Failed to fetch). Is it still running? Run `airlock open` again.',
      ),
    );
    expect(
      await redeem(
        answer(() =>
          Response.json(
            {
              error: 'FORBIDDEN_ORIGIN',
              message: "An open code is redeemed only by Airlock's own page.",
            },
            { status: 403 },
          ),
        ),
      ),
    ).toMatchObject(
      failed(
        "Airlock did not open this link (HTTP 403: An open code is redeemed only by Airlock's own page.). Run `airlock open` again.",
      ),
    );
    expect(
      await redeem(answer(() => new Response('<html>bad gateway', { status: 502 }))),
    ).toMatchObject(failed('Airlock did not open this link (HTTP 502). Run `airlock open` again.'));
    // A 410 that is not the route's own answer (a proxy, another server) is not "already used".
    expect(await redeem(answer(() => new Response('gone', { status: 410 })))).toMatchObject(
      failed('Airlock did not open this link (HTTP 410). Run `airlock open` again.'),
    );
    for (const body of [new Response('not json'), Response.json({}), Response.json({ token: 7 })])
      expect(await redeem(answer(() => body))).toMatchObject(
        failed("Airlock's answer to this link held no control token. Run `airlock open` again."),
      );
    expect(
      await redeem(
        answer(() => Response.json({ error: 'OPEN_CODE_SPENT', message: 'x' }, { status: 410 })),
      ),
    ).toMatchObject(SPENT);
  });

  it('calls wait for the token; a spent code makes every call say so', async () => {
    const s = server('good');
    const ok = pendingHttpTransport('http://h', Promise.resolve('alc_t'), s.fetchImpl);
    expect(await ok.api.getStatus()).toEqual({ ok: true });
    expect(s.sent[0]!.init.headers).toMatchObject({ authorization: 'Bearer alc_t' });
    const spent = pendingHttpTransport('http://h', Promise.resolve(null), s.fetchImpl);
    await expect(spent.api.getStatus()).rejects.toMatchObject(SPENT);
    // A failed redemption's own error is what every call answers.
    const err = Object.assign(new Error('unreachable'), { code: OPEN_CODE_FAILED });
    const failed = pendingHttpTransport('http://h', Promise.reject(err), s.fetchImpl);
    await expect(failed.api.getStatus()).rejects.toBe(err);
  });

  it('takes code and token both out of the address, whichever it uses', () => {
    for (const [hash, rest] of [
      ['#code=C&token=T', '/#/approvals'],
      ['#token=T&code=C', '/#/approvals'],
      ['#/popup?code=C&token=T', '/#/popup'],
      ['#/popup?token=T&code=C&token=U', '/#/popup'],
    ] as const) {
      const f = fakes(hash);
      expect(takeOpenCode(f.loc, f.hist)).toBe('C');
      expect(f.replaced).toEqual([rest]);
      const g = fakes(hash);
      expect(takeControlToken(g.loc, g.hist, g.store)).toBe('T');
      expect(g.replaced).toEqual([rest]);
      const h = fakes(hash);
      expect(startFromAddress(h.loc, h.hist, h.store)).toEqual({ code: 'C' });
      expect(h.replaced).toEqual([rest]);
      expect(h.data.has('airlock.controlToken')).toBe(false);
    }
  });

  it('a tab whose code was taken but never traded (reload mid-redemption) is told so', async () => {
    const f = fakes('#code=C');
    expect(startFromAddress(f.loc, f.hist, f.store)).toEqual({ code: 'C' });
    // Never the code itself: it is spent once sent, and not retried.
    expect([...f.data.values()]).not.toContain('C');
    // The reload: the address is bare now, and there is no token for the tab.
    const reloaded = { ...f.loc, hash: '#/approvals' } as Location;
    expect(startFromAddress(reloaded, f.hist, f.store)).toEqual({ none: true, codeLost: true });
    // A redemption that did finish clears it; a plain load without any never had it.
    const s = server('C');
    await redeemOpenCode('http://h', 'C', f.store, s.fetchImpl);
    expect(startFromAddress(reloaded, f.hist, f.store)).toEqual({ token: 'alc_from_code' });
    f.data.delete('airlock.controlToken');
    expect(startFromAddress(reloaded, f.hist, f.store)).toEqual({ none: true, codeLost: false });
    // A trade that failed says so itself; a later reload of the bare address is a plain one.
    const h = fakes('#code=C');
    startFromAddress(h.loc, h.hist, h.store);
    await expect(
      redeemOpenCode('http://h', 'C', h.store, server('other').fetchImpl),
    ).rejects.toMatchObject(SPENT);
    expect(h.data.size).toBe(0);
    const g = fakes('#token=T');
    expect(startFromAddress(g.loc, g.hist, g.store)).toEqual({ token: 'T' });
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
