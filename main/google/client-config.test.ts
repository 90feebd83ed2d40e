import { afterEach, describe, expect, it } from 'vitest';
import { filesContaining } from '../../e2e/helpers/files.js';
import { googleKit, type GoogleKit } from '../../test-support/google.js';
import { ClientConfigError, parseClientFile } from './client-config.js';
import { GOOGLE_ENDPOINTS, resolveEndpoints } from './endpoints.js';
import { FULL_MAIL_SCOPE, scopesFor } from './scopes.js';

let kit: GoogleKit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const installed = (o: Record<string, unknown>) =>
  JSON.stringify({
    installed: {
      client_id: '123-abc.apps.googleusercontent.com',
      client_secret: 'GOCSPX-abcdef',
      project_id: 'p1',
      ...o,
    },
  });

describe('OAuth client import (issue 5, item 1)', () => {
  it("reads Google's downloaded Desktop client file", () => {
    expect(parseClientFile(installed({}))).toEqual({
      clientId: '123-abc.apps.googleusercontent.com',
      clientSecret: 'GOCSPX-abcdef',
      projectId: 'p1',
    });
  });

  it.each([
    ['not JSON', '{nope', /not JSON/],
    [
      'a Web client',
      JSON.stringify({ web: { client_id: 'x.apps.googleusercontent.com', client_secret: 'y' } }),
      /"Web application".*"Desktop app"/,
    ],
    ['another file', JSON.stringify({ type: 'service_account' }), /expected \{"installed"/],
    ['a bad client ID', installed({ client_id: 'hello' }), /apps\.googleusercontent\.com/],
    ['no secret', installed({ client_secret: '' }), /secret is missing/],
  ])('refuses %s with the reason', (_what, text, message) => {
    expect(() => parseClientFile(text)).toThrow(ClientConfigError);
    expect(() => parseClientFile(text)).toThrow(message);
  });

  it('keeps the ID in settings and the secret only in the vault; refuses a new client while accounts depend on the old one', async () => {
    kit = await googleKit();
    const view = await kit.control.getGoogleClient();
    expect(view).toMatchObject({
      clientId: kit.fake.clientId,
      hasSecret: true,
      projectId: 'airlock-fake',
    });
    expect(JSON.stringify(view)).not.toContain(kit.fake.clientSecret);
    expect(await kit.vault.get('google-client-secret')).toBe(kit.fake.clientSecret);
    expect(filesContaining(kit.dir, kit.fake.clientSecret)).toEqual([]);
    expect(kit.settings.get().google.client!.clientId).toBe(kit.fake.clientId);

    await expect(kit.control.setGoogleClient({ json: '{' })).rejects.toMatchObject({
      code: 'INVALID',
    });
    await kit.connect();
    await expect(
      kit.control.setGoogleClient({
        clientId: 'other.apps.googleusercontent.com',
        clientSecret: 'GOCSPX-x',
      }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('alice@example.com'),
    });
    expect(kit.settings.get().google.client!.clientId).toBe(kit.fake.clientId);
    // The same client with a reset secret is fine.
    await kit.control.setGoogleClient({ clientId: kit.fake.clientId, clientSecret: 'GOCSPX-new' });
    expect(await kit.vault.get('google-client-secret')).toBe('GOCSPX-new');
  });
});

describe('endpoints (issue 5, item 8)', () => {
  it('defaults to Google; environment beats settings', () => {
    expect(resolveEndpoints(undefined, {})).toEqual(GOOGLE_ENDPOINTS);
    const e = resolveEndpoints(
      { tokenUrl: 'https://a.example/token', apiRoot: 'http://127.0.0.1:9' },
      { AIRLOCK_GOOGLE_TOKEN_URL: 'http://localhost:8/token' },
    );
    expect(e).toMatchObject({
      tokenUrl: 'http://localhost:8/token',
      apiRoot: 'http://127.0.0.1:9/',
      authUrl: GOOGLE_ENDPOINTS.authUrl,
    });
  });

  it('refuses plain http off loopback and URLs with credentials (tokens travel there)', () => {
    expect(() => resolveEndpoints({ tokenUrl: 'http://evil.example/token' }, {})).toThrow(
      /must be https/,
    );
    expect(() =>
      resolveEndpoints(undefined, { AIRLOCK_GOOGLE_AUTH_URL: 'https://u:p@x.example/' }),
    ).toThrow(/without credentials/);
    expect(() => resolveEndpoints(undefined, { AIRLOCK_GOOGLE_API_ROOT: 'not a url' })).toThrow(
      /not a URL/,
    );
  });
});

describe('scopes (issue 5, item 4)', () => {
  it('never asks for full mail access; read-only asks only read-only scopes', () => {
    for (const ro of [true, false]) expect(scopesFor(ro)).not.toContain(FULL_MAIL_SCOPE);
    expect(
      scopesFor(true)
        .filter((s) => s.startsWith('https://'))
        .every((s) => s.endsWith('.readonly')),
    ).toBe(true);
  });
});
