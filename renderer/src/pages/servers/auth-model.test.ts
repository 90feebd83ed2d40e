import { describe, expect, it } from 'vitest';
import type { RemoteView } from '../../../../common/contract';
import {
  expiryOf,
  issuerText,
  loginOptions,
  logoutMessage,
  needsSignIn,
  signInRequiredText,
  startErrorCode,
} from './auth-model';

const server = (auth?: RemoteView['auth']): RemoteView => ({
  name: 'secure',
  url: 'https://mcp.example.com/mcp',
  enabled: true,
  relay: true,
  sourceId: 'remote:secure',
  headerNames: [],
  hasToken: false,
  state: 'error',
  toolCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...(auth ? { auth } : {}),
});

describe('remote sign-in words', () => {
  it('turns the core status line into a sentence, reason kept word for word', () => {
    expect(signInRequiredText('sign-in required')).toBe('Sign-in required');
    expect(
      signInRequiredText(
        'sign-in required: the authorization server refused to renew the sign-in (invalid_grant)',
      ),
    ).toBe(
      'Sign-in required: the authorization server refused to renew the sign-in (invalid_grant)',
    );
    expect(signInRequiredText('sign-in required (needs scope repo)')).toBe(
      'Sign-in required (needs scope repo)',
    );
  });

  it('knows when a server waits for a sign-in', () => {
    expect(needsSignIn(server())).toBe(false);
    expect(needsSignIn(server({ signedIn: true, renews: true }))).toBe(false);
    expect(
      needsSignIn(server({ signedIn: false, renews: false, signInRequired: 'sign-in required' })),
    ).toBe(true);
  });

  it('shows the issuer without its scheme, and an unparsable one as given', () => {
    expect(issuerText('https://auth.example.com')).toBe('auth.example.com');
    expect(issuerText('http://127.0.0.1:4000/oauth')).toBe('127.0.0.1:4000/oauth');
    expect(issuerText('not a url')).toBe('not a url');
    expect(issuerText(undefined)).toBe('the server’s authorization server');
  });

  it('says "renews" only with a refresh token, else when access ends', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const at = '2026-01-01T13:00:00.000Z';
    expect(expiryOf({ signedIn: true, renews: true, expiresAt: at }, now)).toEqual({
      kind: 'renews',
      at,
    });
    expect(expiryOf({ signedIn: true, renews: false, expiresAt: at }, now)).toEqual({
      kind: 'expires',
      at,
    });
    expect(
      expiryOf({ signedIn: true, renews: false, expiresAt: '2026-01-01T11:00:00Z' }, now)?.kind,
    ).toBe('expired');
    expect(expiryOf({ signedIn: true, renews: true }, now)).toBeNull();
  });

  it('tells whether the provider confirmed the revocation', () => {
    expect(logoutMessage({ name: 'secure', revoked: true })).toContain(
      'server confirmed the revocation',
    );
    const unconfirmed = logoutMessage({
      name: 'secure',
      revoked: false,
      detail: 'no revocation endpoint',
    });
    expect(unconfirmed).toContain('did not confirm the revocation (no revocation endpoint)');
  });

  it('reads the code at the end of a start error', () => {
    expect(startErrorCode('The authorization server … with --client-id. [NEEDS_CLIENT_ID]')).toBe(
      'NEEDS_CLIENT_ID',
    );
    expect(startErrorCode('No remote server "x".')).toBeNull();
  });

  it('builds loginRemote options: empty fields left out, the browser asked for, a lone secret refused', () => {
    expect(loginOptions({ clientId: '', clientSecret: '', scope: '  ' })).toEqual({
      openBrowser: true,
    });
    expect(
      loginOptions({ clientId: ' abc ', clientSecret: ' s3 ', scope: ' read   write ' }),
    ).toEqual({
      openBrowser: true,
      clientId: 'abc',
      clientSecret: 's3',
      scope: 'read write',
    });
    expect(() => loginOptions({ clientId: '', clientSecret: 'x', scope: '' })).toThrow(
      'needs its client ID',
    );
  });
});
