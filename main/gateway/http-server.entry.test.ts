import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Logger } from '../platform/log.js';
import type { ControlRoutes } from './control-routes.js';
import { Gateway, pathOf, type McpExchange } from './http-server.js';
import { sendJson } from './guards.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * The gateway's entry as issue 34 left it: route() not async (a handler's synchronous throw is
 * answered as its rejection is), the path taken without split(), and the Content-Type check that
 * looks at the everyday value before its pattern.
 */
let mode: 'answer' | 'throw' | 'reject' = 'answer';
const handle = (x: McpExchange): Promise<void> | void => {
  if (mode === 'throw') throw new Error('thrown in the handler');
  if (mode === 'reject') return Promise.reject(new Error('rejected by the handler'));
  sendJson(x.res, 200, { ok: true });
};
const gateway = new Gateway({
  mcp: { handle, close: async () => {} },
  control: {
    closeStreams: () => {},
    // A route that fails in the request's own turn, before any promise.
    authorize: () => {
      throw new Error('thrown by the control API');
    },
  } as unknown as ControlRoutes,
  authenticateAgent: (t) => (t === 'agent-token' ? 'agent' : null),
  logger: new Logger({ stderr: false }),
  version: 'test',
  maxBodyBytes: () => 1 << 20,
  uiDir: tempDir('airlock-ui-'),
});
let port: number;
beforeAll(async () => {
  port = await gateway.start(0);
});
afterAll(() => gateway.stop(100));

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} });

function post(type: string, path = '/mcp') {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { authorization: 'Bearer agent-token', 'content-type': type },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(BODY);
  });
}

describe('the gateway entry (issue 34)', () => {
  it('answers a handler that throws at once as one whose promise rejects: 500', async () => {
    const internal = { error: 'INTERNAL', message: 'Internal error' };
    mode = 'throw';
    const thrown = await post('application/json');
    mode = 'reject';
    const rejected = await post('application/json');
    mode = 'answer';
    expect(thrown.status).toBe(500);
    expect(JSON.parse(thrown.body)).toEqual(internal);
    expect(rejected.status).toBe(500);
    expect(JSON.parse(rejected.body)).toEqual(internal);
    expect((await post('application/json')).status).toBe(200);
  });

  it('answers a route that throws in the request listener itself with 500', async () => {
    const r = await post('application/json', '/api/rpc');
    expect(r.status).toBe(500);
    expect(JSON.parse(r.body)).toEqual({ error: 'INTERNAL', message: 'Internal error' });
  });

  it('takes the JSON media types its pattern takes, and refuses the rest with 415', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON'])
      expect((await post(type)).status, type).toBe(200);
    for (const type of ['application/jsonp', 'text/plain', 'text/application/json', ''])
      expect((await post(type)).status, type).toBe(415);
  });

  it('finds /mcp behind a query string', async () => {
    expect((await post('application/json', '/mcp?x=1?y')).status).toBe(200);
  });

  it("pathOf is split('?')[0] over generated URLs", () => {
    const url = fc.oneof(
      fc.constant(undefined),
      fc.string(),
      fc
        .array(fc.constantFrom('/', '?', 'mcp', '=', '&', '#', '%3F', ''), { maxLength: 8 })
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(url, (u) => {
        expect(pathOf(u)).toBe((u ?? '/').split('?')[0]);
      }),
      { seed: 3434, numRuns: 2000 },
    );
  });
});
