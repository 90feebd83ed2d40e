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
    const r = new ConnectionRedactor();
    r.follow(conn);
    expect(hide(r, 'access-one')).toBe('access-one'); // not known before the first sync
    r.sync(conn);
    expect(hide(r, 'access-one header-secret')).toBe('[redacted] [redacted]');

    tokens = ['access-two', 'refresh-one']; // a refresh: same length, one value changed
    r.sync(conn);
    expect(hide(r, 'access-two refresh-one')).toBe('[redacted] [redacted]');
    expect(hide(r, 'access-one')).toBe('access-one');

    tokens = [...tokens]; // a new array with the same values: nothing to make again
    r.sync(conn);
    expect(hide(r, 'access-two')).toBe('[redacted]');

    // The connection edited: its new header, and the tokens again at the next sync.
    const edited = { headers: { 'x-key': 'other-secret' }, auth };
    r.follow(edited);
    expect(hide(r, 'header-secret other-secret')).toBe('header-secret [redacted]');
    r.sync(edited);
    expect(hide(r, 'access-two other-secret')).toBe('[redacted] [redacted]');

    tokens = []; // signed out: the old token values are no longer secrets of this connection
    r.sync(edited);
    expect(hide(r, 'access-two other-secret')).toBe('access-two [redacted]');
  });

  it('a connection without OAuth keeps its header values', () => {
    const conn = { headers: { authorization: 'Bearer static-token' } };
    const r = new ConnectionRedactor();
    r.follow(conn);
    r.sync(conn);
    expect(hide(r, 'static-token')).toBe('[redacted]');
  });
});
