import { describe, expect, it } from 'vitest';
import { GoogleToolError } from './account-access.js';
import { calendarError } from './calendar/errors.js';
import { apiError, googleErrorResult, refreshError } from './errors.js';
import { classify, classifyResponse, tryAgainIn } from './failure.js';
import { toToolError } from './gmail/errors.js';

/**
 * The one Google failure classifier (issue 13): every edge case once, here.
 * Gmail, Calendar and the accounts layer only word the kinds differently;
 * the last block checks they agree on the kind and share one result format.
 */

const NOW = Date.parse('2026-03-01T12:00:00Z');

/** A GaxiosError-like failure: what googleapis throws for a non-2xx answer. */
function gaxios(status: number, data: unknown, headers: Record<string, string> = {}) {
  return Object.assign(new Error(`Request failed with status code ${status}`), {
    config: { headers: { Authorization: 'Bearer ya29.secret' } },
    response: { status, data, headers },
  });
}

const apiBody = (
  code: number,
  message: string,
  reasons: string[],
  status?: string,
  details?: string[],
) => ({
  error: {
    code,
    message,
    errors: reasons.map((reason) => ({ reason, domain: 'global', message })),
    ...(status ? { status } : {}),
    ...(details
      ? {
          details: details.map((reason) => ({
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason,
          })),
        }
      : {}),
  },
});

describe('classifyResponse: status + reasons + message → kind', () => {
  it('403 rateLimitExceeded is a rate limit, 403 insufficientPermissions a scope, a bare 403 forbidden', () => {
    expect(
      classifyResponse(403, apiBody(403, 'Rate Limit Exceeded', ['rateLimitExceeded'])).kind,
    ).toBe('rate-limited');
    expect(
      classifyResponse(403, apiBody(403, 'User-rate limit exceeded', ['userRateLimitExceeded']))
        .kind,
    ).toBe('rate-limited');
    expect(
      classifyResponse(403, apiBody(403, 'Insufficient Permission', ['insufficientPermissions']))
        .kind,
    ).toBe('scope');
    expect(
      classifyResponse(403, apiBody(403, 'The caller does not have permission', ['forbidden']))
        .kind,
    ).toBe('forbidden');
  });

  it('ACCESS_TOKEN_SCOPE_INSUFFICIENT in details (AIP-193 v2 shape) is a scope failure', () => {
    const body = apiBody(
      403,
      'Request had insufficient authentication scopes.',
      [],
      'PERMISSION_DENIED',
      ['ACCESS_TOKEN_SCOPE_INSUFFICIENT'],
    );
    const f = classifyResponse(403, body);
    expect(f.kind).toBe('scope');
    expect(f.reasons).toEqual(['ACCESS_TOKEN_SCOPE_INSUFFICIENT', 'PERMISSION_DENIED']);
  });

  it('PERMISSION_DENIED is a scope failure only when its message speaks of scopes', () => {
    expect(
      classifyResponse(
        403,
        apiBody(403, 'Missing required scope for this call', [], 'PERMISSION_DENIED'),
      ).kind,
    ).toBe('scope');
    expect(
      classifyResponse(
        403,
        apiBody(403, 'You need to have writer access to this calendar.', [], 'PERMISSION_DENIED'),
      ).kind,
    ).toBe('forbidden');
  });

  it('a rate-limit reason wins over scope text on the same 403', () => {
    expect(
      classifyResponse(
        403,
        apiBody(403, 'insufficient permission, quota exceeded', ['quotaExceeded']),
      ).kind,
    ).toBe('rate-limited');
  });

  it('429 takes Retry-After in seconds, as an HTTP date, or "Retry after <date>" from the message', () => {
    expect(
      classifyResponse(
        429,
        apiBody(429, 'Too many', ['rateLimitExceeded']),
        { 'retry-after': '17' },
        NOW,
      ),
    ).toMatchObject({ kind: 'rate-limited', retryAfterSeconds: 17 });
    const httpDate = new Date(NOW + 42_000).toUTCString();
    expect(
      classifyResponse(429, {}, new Headers({ 'retry-after': httpDate }), NOW).retryAfterSeconds,
    ).toBe(42);
    const iso = new Date(NOW + 90_000).toISOString();
    expect(
      classifyResponse(
        429,
        apiBody(429, `User-rate limit exceeded.  Retry after ${iso}`, ['rateLimitExceeded']),
        {},
        NOW,
      ).retryAfterSeconds,
    ).toBe(90);
    // A date already past is "now", not negative; no hint at all stays unknown (the wording picks a default).
    expect(
      classifyResponse(429, {}, { 'retry-after': new Date(NOW - 5000).toUTCString() }, NOW)
        .retryAfterSeconds,
    ).toBe(0);
    expect(classifyResponse(429, {}, {}, NOW).retryAfterSeconds).toBeUndefined();
    expect(
      classifyResponse(429, {}, { 'retry-after': 'soon' }, NOW).retryAfterSeconds,
    ).toBeUndefined();
  });

  it('401, 404, 409, 410, 400, 5xx and anything else', () => {
    expect(classifyResponse(401, apiBody(401, 'Invalid Credentials', ['authError'])).kind).toBe(
      'auth',
    );
    expect(classifyResponse(404, apiBody(404, 'Not Found', ['notFound'])).kind).toBe('not-found');
    expect(
      classifyResponse(409, apiBody(409, 'The requested identifier already exists.', ['duplicate']))
        .kind,
    ).toBe('conflict');
    expect(classifyResponse(410, apiBody(410, 'Resource has been deleted', ['deleted'])).kind).toBe(
      'gone',
    );
    expect(classifyResponse(400, apiBody(400, 'Invalid To header', ['invalidArgument'])).kind).toBe(
      'bad-request',
    );
    for (const s of [500, 502, 503, 504])
      expect(classifyResponse(s, 'Backend Error').kind).toBe('server');
    expect(classifyResponse(418, {}).kind).toBe('other');
  });

  it('OAuth endpoint answers: invalid_grant revoked, invalid_client (even as 401) the client, rate_limit_exceeded', () => {
    const revoked = classifyResponse(400, {
      error: 'invalid_grant',
      error_description: 'Token has been expired or revoked.',
    });
    expect(revoked).toMatchObject({
      kind: 'revoked',
      oauthError: 'invalid_grant',
      message: 'invalid_grant: Token has been expired or revoked.',
    });
    expect(
      classifyResponse(401, { error: 'invalid_client', error_description: 'Unauthorized' }).kind,
    ).toBe('client');
    expect(classifyResponse(400, { error: 'rate_limit_exceeded' }).kind).toBe('rate-limited');
  });

  it('reads a JSON text body as well as an object, and survives one that is not JSON', () => {
    expect(
      classifyResponse(403, JSON.stringify(apiBody(403, 'x', ['insufficientPermissions']))).kind,
    ).toBe('scope');
    expect(classifyResponse(502, '<html>Bad Gateway</html>')).toMatchObject({
      kind: 'server',
      message: '',
    });
  });
});

describe('classify: anything thrown', () => {
  it('a gaxios error is classified by its response', () => {
    expect(
      classify(
        gaxios(403, apiBody(403, 'Rate Limit Exceeded', ['rateLimitExceeded']), {
          'retry-after': '3',
        }),
      ),
    ).toMatchObject({ kind: 'rate-limited', status: 403, retryAfterSeconds: 3 });
  });

  it('network codes, on the error or on a fetch failure’s cause; timeouts', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET'])
      expect(classify(Object.assign(new Error('boom'), { code }))).toMatchObject({
        kind: 'network',
        networkCode: code,
      });
    const fetchFailed = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
    });
    expect(classify(fetchFailed)).toMatchObject({ kind: 'network', networkCode: 'ECONNREFUSED' });
    expect(classify(new DOMException('The operation timed out.', 'TimeoutError'))).toMatchObject({
      kind: 'network',
      networkCode: 'timeout',
    });
  });

  it('aborts are not network failures (and never retried)', () => {
    const ctrl = new AbortController();
    ctrl.abort();
    expect(classify(ctrl.signal.reason).kind).toBe('aborted');
    expect(
      classify(Object.assign(new Error('The operation was aborted'), { code: 'ABORT_ERR' })).kind,
    ).toBe('aborted');
    expect(
      classify(Object.assign(new Error('aborted'), { code: 'AbortError', config: {} })).kind,
    ).toBe('aborted');
  });

  it('a plain bug is "other", not a network failure', () => {
    expect(classify(new TypeError("Cannot read properties of undefined (reading 'id')")).kind).toBe(
      'other',
    );
  });
});

describe('the wordings agree on the kind and share one result format', () => {
  const scope403 = () =>
    gaxios(
      403,
      apiBody(403, 'Request had insufficient authentication scopes.', [], 'PERMISSION_DENIED', [
        'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
      ]),
    );
  const limited = () =>
    gaxios(429, apiBody(429, 'Too many', ['rateLimitExceeded']), { 'retry-after': '1' });

  it('Gmail, Calendar and the accounts layer give the same code for the same failure', () => {
    const cases: [() => Error, string][] = [
      [scope403, 'OAUTH_SCOPE'],
      [limited, 'RATE_LIMITED'],
      [() => gaxios(401, apiBody(401, 'Invalid Credentials', ['authError'])), 'OAUTH_REVOKED'],
      [() => gaxios(404, apiBody(404, 'Not Found', ['notFound'])), 'GOOGLE_API'],
      [() => gaxios(503, 'unavailable'), 'GOOGLE_API'],
    ];
    for (const [make, code] of cases) {
      expect(toToolError(make(), { account: 'a@example.com', what: 'message 1' }).code).toBe(code);
      expect(calendarError(make(), 'a@example.com').code).toBe(code);
      const e = make() as Error & {
        response: { status: number; data: unknown; headers: Record<string, string> };
      };
      expect(
        apiError(e.response.status, e.response.data, e.response.headers, 'a@example.com').code,
      ).toBe(code);
    }
  });

  it('one text format: message, "Try again in N second(s).", then [CODE]; structuredContent.error', () => {
    const gmail = googleErrorResult(
      toToolError(limited(), { account: 'a@example.com', what: 'x' }),
    );
    const calendar = googleErrorResult(calendarError(limited(), 'a@example.com'));
    for (const r of [gmail, calendar]) {
      expect(r.isError).toBe(true);
      expect((r.content[0] as { text: string }).text).toMatch(
        / Try again in 1 second\. \[RATE_LIMITED\]$/,
      );
      expect(r.structuredContent).toMatchObject({
        error: { code: 'RATE_LIMITED', retryAfterSeconds: 1 },
      });
    }
    expect(tryAgainIn(1)).toBe('Try again in 1 second.');
    expect(tryAgainIn(30)).toBe('Try again in 30 seconds.');
    const revoked = refreshError(
      gaxios(400, {
        error: 'invalid_grant',
        error_description: 'Token has been expired or revoked.',
      }),
      'a@example.com',
    );
    expect(revoked.revoked).toBe(true);
    expect((googleErrorResult(revoked.error).content[0] as { text: string }).text).toMatch(
      /^Reconnect a@example.com in Airlock.*\[OAUTH_REVOKED\]$/,
    );
  });

  it('no wording repeats the request (its bearer token) into the result', () => {
    const e = scope403();
    for (const r of [
      googleErrorResult(toToolError(e, { account: 'a@example.com', what: 'x' })),
      googleErrorResult(calendarError(e, 'a@example.com')),
    ])
      expect(JSON.stringify(r)).not.toContain('ya29.secret');
    expect(googleErrorResult(new GoogleToolError('NO_ACCOUNT', 'none')).content[0]).toMatchObject({
      text: 'none [NO_ACCOUNT]',
    });
  });
});
