import { describe, expect, it } from 'vitest';
import { ConnectionRedactor } from './redact.js';

/**
 * The redactor follows a connection's secrets (server-connection.ts). sync() runs after every
 * call and makes the list again only when something changed (issue 34): a refreshed token, a
 * reconfigured connection, must still be redacted at once.
 */
describe('ConnectionRedactor.sync', () => {
  const hide = (r: ConnectionRedactor, s: string) => r.result({ text: s }).text;

  it('follows a refreshed token and a new connection, and keeps what did not change', () => {
    let tokens = ['access-one', 'refresh-one'];
    const auth = { secrets: () => tokens };
    const conn = { headers: { 'x-key': 'header-secret' }, auth };
    let now = 0;
    const r = new ConnectionRedactor(undefined, { now: () => now, keepMs: 1000 });
    r.follow(conn);
    expect(hide(r, 'access-one')).toBe('access-one'); // not known before the first sync
    r.sync(conn);
    expect(hide(r, 'access-one header-secret')).toBe('[redacted] [redacted]');

    tokens = ['access-two', 'refresh-one']; // a refresh: same length, one value changed
    r.sync(conn);
    expect(hide(r, 'access-two refresh-one')).toBe('[redacted] [redacted]');
    // The old token is still valid a while, and a call sent with it may echo it yet.
    expect(hide(r, 'access-one')).toBe('[redacted]');
    now = 1000; // its time is up: made again at the next redaction
    expect(hide(r, 'access-one')).toBe('access-one');

    tokens = [...tokens]; // a new array with the same values: nothing to make again
    r.sync(conn);
    expect(hide(r, 'access-two')).toBe('[redacted]');

    // The connection edited: its new header, and the tokens again at the next sync.
    const edited = { headers: { 'x-key': 'other-secret' }, auth };
    r.follow(edited);
    // The old connection still serves calls in flight: its header value stays redacted a while.
    expect(hide(r, 'header-secret other-secret')).toBe('[redacted] [redacted]');
    now = 2000;
    expect(hide(r, 'header-secret other-secret')).toBe('header-secret [redacted]');
    r.sync(edited);
    expect(hide(r, 'access-two other-secret')).toBe('[redacted] [redacted]');

    tokens = []; // signed out: the old token values are no longer secrets of this connection
    r.sync(edited);
    expect(hide(r, 'access-two other-secret')).toBe('[redacted] [redacted]');
    now = 3000;
    expect(hide(r, 'access-two other-secret')).toBe('access-two [redacted]');
  });

  it('follows its source before each redaction, and keeps a bounded count of old values', () => {
    let tokens = ['token-0'];
    const conn = { headers: {}, auth: { secrets: () => tokens } };
    const r = new ConnectionRedactor(() => conn, { now: () => 0, keepMax: 2 });
    r.follow(conn);
    expect(r.text('token-0')).toBe('[redacted]'); // learned without a sync() of the caller's
    for (const n of [1, 2, 3]) {
      tokens = [`token-${n}`];
      expect(r.text(`token-${n}`)).toBe('[redacted]');
    }
    // token-1 and token-2 are kept; token-0, the oldest past the bound of 2, is not.
    expect(r.text('token-0 token-1 token-2')).toBe('token-0 [redacted] [redacted]');
  });

  it('a connection without OAuth keeps its header values', () => {
    const conn = { headers: { authorization: 'Bearer static-token' } };
    const r = new ConnectionRedactor();
    r.follow(conn);
    r.sync(conn);
    expect(hide(r, 'static-token')).toBe('[redacted]');
  });
});

describe('Redactor.result', () => {
  it('finds a secret holding a quote or a backslash, as it stands in the JSON', () => {
    const r = new ConnectionRedactor();
    r.follow({ headers: { 'x-key': '{"k":"v-123"}', 'x-path': 'dom\\user-pw' } });
    const out = JSON.stringify(r.result({ a: 'sent {"k":"v-123"}', b: 'as dom\\user-pw' }));
    expect(out).toBe('{"a":"sent [redacted]","b":"as [redacted]"}');
  });

  it('redacts a numeric secret a server echoes as a number, and the result stays a value', () => {
    // Matched in the JSON text outside a string, it left text that was no JSON (the call threw).
    const r = new ConnectionRedactor();
    r.follow({ headers: { 'x-api-key': '12345678' } });
    const echoed = JSON.parse(
      '{"structuredContent":{"n":123456789,"m":7,"s":"k 12345678","12345678":1,"__proto__":{"x":12345678}}}',
    ) as object;
    expect(JSON.stringify(r.result(echoed))).toBe(
      '{"structuredContent":{"[redacted]":1,"n":"[redacted]","m":7,"s":"k [redacted]","__proto__":{"x":"[redacted]"}}}',
    );
  });
});

describe('Redactor.text', () => {
  it('finds a secret URL-encoded, as an upstream puts it in a link', () => {
    const r = new ConnectionRedactor();
    r.follow({ headers: { authorization: 'Bearer ab+cd/ef==' } });
    expect(r.text('https://x.example/?t=ab%2Bcd%2Fef%3D%3D&u=1')).toBe(
      'https://x.example/?t=[redacted]&u=1',
    );
  });
});

describe('Redactor.set', () => {
  it('takes a value that cannot be URL-encoded (a lone surrogate) and still redacts it', () => {
    const r = new ConnectionRedactor();
    r.follow({ headers: { 'x-key': 'abc\ud800def' } });
    expect(r.text('got abc\ud800def')).toBe('got [redacted]');
  });
});
