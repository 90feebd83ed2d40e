import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlApi } from '../../common/contract/index.js';
import { OPEN_CODE_SPENT } from '../../common/open-code.js';
import { mintOpenCode } from '../cli/socket-client.js';
import { CoreEvents } from '../platform/events.js';
import { Logger } from '../platform/log.js';
import { OPEN_CODE_TTL_MS, OpenCodes } from './control-open-codes.js';
import { ControlRoutes } from './control-routes.js';
import { ControlSocket, controlSocketPath } from './control-socket.js';
import { Gateway, type McpHandler } from './http-server.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * The one-time open code end to end through the real transports (common/open-code.ts): minted
 * over the control socket only with the control token, redeemed at /api/open-code only by the
 * page's own origin, once, within 60 s of the (fake) clock, and every refusal alike.
 */
const TOKEN = 'alc_control_token_of_this_test';
const logger = new Logger({ stderr: false });
const clock = { now: 5_000_000 };
const codes = new OpenCodes(() => clock.now);
const api = {} as ControlApi;
const socket = new ControlSocket({ api, logger, controlToken: TOKEN, openCodes: codes });
const routes = (controlToken: string) =>
  new ControlRoutes({
    api,
    events: new CoreEvents(),
    logger,
    controlToken,
    isAgentToken: () => false,
    openCodes: codes,
  });
const mcp = { handle: async () => {}, close: async () => {} } as unknown as McpHandler;
const gateway = (controlToken: string) =>
  new Gateway({
    mcp,
    control: routes(controlToken),
    authenticateAgent: () => null,
    logger,
    version: 'test',
    maxBodyBytes: () => 1 << 20,
    uiDir: tempDir('airlock-ui-'),
  });
const mine = gateway(TOKEN);
const other = gateway('alc_another_profile');
let path: string;
let port: number;
let otherPort: number;

beforeAll(async () => {
  path = await socket.start(controlSocketPath(tempDir('airlock-code-')));
  port = await mine.start(0);
  otherPort = await other.start(0);
});
afterAll(async () => {
  await socket.stop();
  await mine.stop(100);
  await other.stop(100);
});

function redeem(
  body: string,
  headers: Record<string, string | undefined>,
  to = port,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const sent = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined));
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: to, path: '/api/open-code', method: 'POST', headers: sent },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(text) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
const own = (to = port) => ({
  origin: `http://127.0.0.1:${to}`,
  'sec-fetch-site': 'same-origin',
  'content-type': 'application/json',
});
const asPage = (code: string, to = port) => redeem(JSON.stringify({ code }), own(to), to);

describe.skipIf(process.platform === 'win32')(
  'one-time open codes over the real transports',
  () => {
    it('minting takes the control token, even on the owner-only socket', async () => {
      await expect(mintOpenCode(path, 'wrong')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
      await expect(mintOpenCode(path, '')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
      expect(await mintOpenCode(path, TOKEN)).toMatchObject({ expiresInMs: OPEN_CODE_TTL_MS });
    });

    it('a redeemed code cannot be redeemed again; the answer says nothing more', async () => {
      const { code } = await mintOpenCode(path, TOKEN);
      expect(await asPage(code)).toEqual({ status: 200, body: { token: TOKEN } });
      const again = await asPage(code);
      expect(again).toMatchObject({ status: 410, body: { error: OPEN_CODE_SPENT } });
      expect(JSON.stringify(again.body)).not.toContain(TOKEN);
      // Unknown and expired codes get the very same answer.
      expect(await asPage('nope')).toEqual(again);
      const late = await mintOpenCode(path, TOKEN);
      clock.now += OPEN_CODE_TTL_MS;
      expect(await asPage(late.code)).toEqual(again);
    });

    it('a code is refused to any origin but the page’s own, and is not spent by it', async () => {
      const { code } = await mintOpenCode(path, TOKEN);
      const body = JSON.stringify({ code });
      for (const headers of [
        { ...own(), origin: 'https://evil.example' },
        { ...own(), origin: 'null' },
        { ...own(), origin: undefined }, // curl, or anything that is not a page
        { ...own(), origin: `http://127.0.0.1:${otherPort}` }, // another loopback server's page
        { ...own(), origin: `http://localhost:${port}` }, // not the Host it was sent to
        { ...own(), 'sec-fetch-site': 'cross-site' },
        { ...own(), 'sec-fetch-site': 'same-site' },
      ]) {
        const r = await redeem(body, headers);
        expect(r.status).toBe(403);
        expect(JSON.stringify(r.body)).not.toContain(TOKEN);
      }
      expect(await asPage(code)).toEqual({ status: 200, body: { token: TOKEN } });
    });

    it('another profile’s server does not redeem this one’s code (nor burn-and-leak it)', async () => {
      const { code } = await mintOpenCode(path, TOKEN);
      expect(await asPage(code, otherPort)).toMatchObject({ status: 410 });
      expect(await asPage(code)).toMatchObject({ status: 410 }); // tried once: spent
    });

    it('bad bodies: too large, not JSON, no code; GET is refused', async () => {
      expect(await redeem('x'.repeat(2048), own())).toMatchObject({ status: 413 });
      expect(await redeem('{', own())).toMatchObject({ status: 400 });
      expect(await redeem('{"code": 1}', own())).toMatchObject({ status: 400 });
      expect(await redeem('null', own())).toMatchObject({ status: 400 });
      const got = await new Promise<number>((resolve, reject) =>
        request({ host: '127.0.0.1', port, path: '/api/open-code', headers: own() }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end(),
      );
      expect(got).toBe(405);
    });
  },
);
