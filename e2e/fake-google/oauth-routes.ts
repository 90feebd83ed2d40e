import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeGoogle } from './server.js';
import { pkceMatches } from './grants.js';
import { bearer, esc, html, json, oauthError, readForm, redirect } from './http.js';

/**
 * Google's OAuth endpoints for installed apps, in the documented shapes
 * (developers.google.com/identity/protocols/oauth2/native-app): the
 * authorization page, the token endpoint (authorization_code with PKCE,
 * refresh_token), revocation and OpenID Connect userinfo.
 */

const LOOPBACK_REDIRECT = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(:\d+)?(\/[^?#]*)?$/;

export function authorize(fake: FakeGoogle, url: URL, res: ServerResponse): void {
  const p = url.searchParams;
  fake.authRequests.push(new URLSearchParams(p));
  if (p.get('client_id') !== fake.clientId)
    return html(res, 401, 'Error 401: invalid_client', 'The OAuth client was not found.');
  const redirectUri = p.get('redirect_uri') ?? '';
  // Desktop clients may redirect to any loopback port; anything else is a mismatch.
  if (!LOOPBACK_REDIRECT.test(redirectUri))
    return html(
      res,
      400,
      'Error 400: redirect_uri_mismatch',
      `redirect_uri ${redirectUri} is not allowed for a Desktop client.`,
    );
  if (p.get('response_type') !== 'code')
    return html(
      res,
      400,
      'Error 400: invalid_request',
      'Required parameter is missing: response_type',
    );
  const scopes = (p.get('scope') ?? '').split(/\s+/).filter(Boolean);
  if (!scopes.length)
    return html(res, 400, 'Error 400: invalid_request', 'Missing required parameter: scope');
  const method = p.get('code_challenge_method');
  if (method && method !== 'S256' && method !== 'plain')
    return html(res, 400, 'Error 400: invalid_request', 'Invalid code_challenge_method');
  if (fake.consent === 'page') {
    const id = fake.pendingConsent(p);
    const who = p.get('login_hint') ?? fake.user;
    return html(
      res,
      200,
      'Fake Google — choose',
      `Airlock wants access to ${who}: ${scopes.join(', ')}`,
      `<form method="post" action="/o/oauth2/v2/consent"><input type="hidden" name="id" value="${esc(id)}">` +
        `<label>Account <input name="email" value="${esc(who)}"></label> ` +
        `<button name="decision" value="allow">Allow</button> <button name="decision" value="deny">Cancel</button></form>`,
    );
  }
  redirect(res, fake.decide(p, fake.deny ? 'deny' : 'allow', p.get('login_hint') ?? fake.user));
}

/** The approve/cancel buttons of the consent page. */
export async function consent(
  fake: FakeGoogle,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const form = await readForm(req);
  const p = fake.takeConsent(form.get('id') ?? '');
  if (!p) return html(res, 400, 'Error 400', 'This consent request expired.');
  redirect(
    res,
    fake.decide(
      p,
      form.get('decision') === 'allow' ? 'allow' : 'deny',
      form.get('email') || fake.user,
    ),
  );
}

export async function token(
  fake: FakeGoogle,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const form = await readForm(req);
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const [basicId, basicSecret] = basic ? Buffer.from(basic, 'base64').toString().split(':') : [];
  const clientId = form.get('client_id') ?? basicId;
  const secret = form.get('client_secret') ?? basicSecret;
  const grantType = form.get('grant_type') ?? '';
  fake.tokenRequests.push({ grantType, form });
  if (clientId !== fake.clientId)
    return oauthError(res, 401, 'invalid_client', 'The OAuth client was not found.');
  if (secret !== fake.clientSecret) return oauthError(res, 401, 'invalid_client', 'Unauthorized');
  if (grantType === 'authorization_code') return exchange(fake, form, res);
  if (grantType === 'refresh_token') return refresh(fake, form, res);
  return oauthError(res, 400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`);
}

function exchange(fake: FakeGoogle, form: URLSearchParams, res: ServerResponse): void {
  const code = fake.grants.codes.get(form.get('code') ?? '');
  if (!code) return oauthError(res, 400, 'invalid_grant', 'Malformed auth code.');
  if (code.used) return oauthError(res, 400, 'invalid_grant', 'Bad Request');
  code.used = true; // single use, even when this attempt fails (RFC 6749 §4.1.2)
  if (form.get('redirect_uri') !== code.redirectUri)
    return oauthError(res, 400, 'redirect_uri_mismatch', 'Bad Request');
  const verifier = form.get('code_verifier');
  if (code.challenge) {
    if (!verifier) return oauthError(res, 400, 'invalid_grant', 'Missing code verifier.');
    if (!pkceMatches(verifier, code.challenge, code.challengeMethod))
      return oauthError(res, 400, 'invalid_grant', 'Invalid code verifier.');
  } else if (verifier) {
    return oauthError(res, 400, 'invalid_request', 'code_verifier or verifier is not needed.');
  }
  const refreshToken =
    fake.grants.wantsRefreshToken(code) && !fake.omitRefreshToken
      ? fake.grants.newRefreshToken({
          clientId: code.clientId,
          email: code.email,
          scopes: code.scopes,
          revoked: false,
        })
      : undefined;
  const accessToken = fake.grants.newAccessToken({
    email: code.email,
    scopes: code.scopes,
    expiresAt: Date.now() + fake.accessTtlSeconds * 1000,
    ...(refreshToken ? { refreshToken } : {}),
  });
  json(res, 200, {
    access_token: accessToken,
    expires_in: fake.accessTtlSeconds,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    scope: code.scopes.join(' '),
    token_type: 'Bearer',
  });
}

async function refresh(
  fake: FakeGoogle,
  form: URLSearchParams,
  res: ServerResponse,
): Promise<void> {
  fake.refreshCount += 1;
  await fake.refreshHold?.pass();
  if (fake.refreshFailure) return json(res, fake.refreshFailure.status, fake.refreshFailure.body);
  const rt = form.get('refresh_token') ?? '';
  const grant = fake.grants.refresh.get(rt);
  if (!grant || grant.revoked || grant.clientId !== fake.clientId)
    return oauthError(res, 400, 'invalid_grant', 'Token has been expired or revoked.');
  const accessToken = fake.grants.newAccessToken({
    email: grant.email,
    scopes: grant.scopes,
    expiresAt: Date.now() + fake.accessTtlSeconds * 1000,
    refreshToken: rt,
  });
  // A refresh answer carries no refresh_token (Google keeps the old one valid).
  json(res, 200, {
    access_token: accessToken,
    expires_in: fake.accessTtlSeconds,
    scope: grant.scopes.join(' '),
    token_type: 'Bearer',
  });
}

export async function revoke(
  fake: FakeGoogle,
  req: IncomingMessage,
  url: URL,
  res: ServerResponse,
): Promise<void> {
  const form = await readForm(req);
  const tokenValue = url.searchParams.get('token') ?? form.get('token') ?? '';
  fake.revoked.push(tokenValue);
  if (!fake.grants.revoke(tokenValue))
    return oauthError(res, 400, 'invalid_token', 'Token expired or revoked');
  json(res, 200, {});
}

export function userinfo(fake: FakeGoogle, req: IncomingMessage, res: ServerResponse): void {
  const g = fake.grants.check(bearer(req));
  if (typeof g === 'string') return oauthError(res, 401, 'invalid_request', 'Invalid Credentials');
  if (
    !g.scopes.includes('email') &&
    !g.scopes.includes('https://www.googleapis.com/auth/userinfo.email')
  ) {
    return json(res, 200, { sub: subOf(g.email) });
  }
  json(res, 200, { sub: subOf(g.email), email: g.email, email_verified: true });
}

const subOf = (email: string) =>
  String([...email].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7)).padStart(21, '1');
