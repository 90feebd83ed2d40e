import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NEVER_MS } from '../../../test-support/remote-app.js';
import { connectUpstream } from './upstream.js';

/**
 * The user approves a remote server's URL and gives its header secrets for it. A redirect to
 * another origin is not that server: fetch drops only Authorization on a cross-origin redirect
 * (Fetch standard, "HTTP-redirect fetch"), so a secret under any other name (X-API-Key) went on
 * to the host the redirect named.
 */
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(() => r(null)))));
});

function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const s = createServer(handler);
  servers.push(s);
  return new Promise((resolve) =>
    s.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`),
    ),
  );
}

describe('remote server header secrets and redirects', () => {
  it.each(['sse', 'streamable-http'] as const)(
    '%s: a redirect to another origin is refused; the secret never reaches it',
    async (only) => {
      const seen: IncomingHttpHeaders[] = [];
      const other = await listen((req, res) => {
        seen.push(req.headers);
        res.writeHead(404).end();
      });
      const asked: IncomingHttpHeaders[] = [];
      const approved = await listen((req, res) => {
        asked.push(req.headers);
        res.writeHead(307, { location: `${other}/mcp` }).end();
      });
      const err = await connectUpstream({
        url: new URL(`${approved}/mcp`),
        headers: { 'X-API-Key': 'secret-key-1234', Authorization: 'Bearer tok-5678' },
        timeoutMs: NEVER_MS,
        clientVersion: '1',
        only,
      }).then(
        () => null,
        (e: unknown) => e as Error,
      );
      // Not refused for another reason: the approved server was asked, with its secret, and
      // the error names the redirect that was not followed.
      expect(asked[0]?.['x-api-key']).toBe('secret-key-1234');
      expect(err?.message).toContain(`Redirect to ${other}/mcp not followed`);
      expect(seen.map((h) => [h['x-api-key'], h.authorization])).toEqual([]);
    },
  );
});
