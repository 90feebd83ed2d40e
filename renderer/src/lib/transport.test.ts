import { describe, expect, it } from 'vitest';
import { ControlError, type ControlApi } from '../../../common/contract';
import { takeControlToken, withBridgeErrors } from './transport';

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
