import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { Logger } from '../platform/log.js';
import type { ControlRoutes } from './control-routes.js';
import { Gateway, type McpExchange } from './http-server.js';
import { sendJson } from './guards.js';
import { LazyMcpEndpoint } from './lazy-mcp.js';
import type { McpEndpoint } from './mcp-endpoint.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Review of issue 34's synchronous route(): whatever throws under it — in the request's own turn
 * or later, with /mcp loaded or still loading — is answered 500 and logged as a failure (a hang-up
 * is logged at debug and the socket dropped), never an uncaught exception or a hung request.
 */
type Mode = 'answer' | 'throw' | 'throw-after-head' | 'hang-up';
let mode: Mode = 'answer';
let releaseLoad!: () => void;
let failLoad = false;
let loads = 0;

const endpoint = {
  handle(x: McpExchange): void {
    if (mode === 'throw') throw new Error('thrown by the endpoint');
    if (mode === 'throw-after-head') {
      x.res.writeHead(200, { 'content-type': 'text/event-stream' });
      x.res.write(': first\n\n');
      throw new Error('thrown after the head');
    }
    if (mode === 'hang-up') throw Object.assign(new Error('peer went away'), { code: 'EPIPE' });
    sendJson(x.res, 200, { ok: true });
  },
  close: async () => {},
} as unknown as McpEndpoint;

const lazy = new LazyMcpEndpoint(() => {
  loads++;
  return new Promise<McpEndpoint>((resolve, reject) => {
    releaseLoad = () => (failLoad ? reject(new Error('load failed')) : resolve(endpoint));
  });
});

let eventsThrow = false;
const logger = new Logger({ stderr: false });
const gateway = new Gateway({
  mcp: lazy,
  control: {
    closeStreams: () => {},
    authorize: () => true,
    rpc: async () => {
      throw new Error('rejected by the control API');
    },
    events: (_req: unknown, res: import('node:http').ServerResponse) => {
      if (eventsThrow) throw new Error('thrown by the event stream');
      res.writeHead(200).end();
    },
  } as unknown as ControlRoutes,
  authenticateAgent: (t) => (t === 'agent-token' ? 'agent' : null),
  logger,
  version: 'test',
  maxBodyBytes: () => 1 << 20,
  uiDir: tempDir('airlock-ui-'),
});
let port: number;
beforeAll(async () => {
  port = await gateway.start(0);
});
afterAll(() => gateway.stop(100));

let errors: ReturnType<typeof vi.spyOn>;
let debugs: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  errors?.mockRestore();
  debugs?.mockRestore();
  errors = vi.spyOn(logger, 'error');
  debugs = vi.spyOn(logger, 'debug');
});

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} });

function send(path = '/mcp', method = 'POST') {
  return new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: { authorization: 'Bearer agent-token', 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', (e) => resolve({ error: e.message }));
      },
    );
    req.on('error', (e) => resolve({ error: e.message }));
    req.end(method === 'POST' ? BODY : undefined);
  });
}

const INTERNAL = { error: 'INTERNAL', message: 'Internal error' };
const failedWith = (message: string, path = '/mcp') =>
  expect(errors).toHaveBeenCalledWith('request failed', { path, error: message });

describe('a throw under the synchronous route() (issue 34, review)', () => {
  it('while /mcp is still loading: the request waits for the load, then a sync throw is a 500, logged', async () => {
    mode = 'throw';
    const waiting = send();
    await eventually(() => expect(loads).toBe(1));
    releaseLoad();
    const r = await waiting;
    expect(r).toEqual({ status: 500, body: JSON.stringify(INTERNAL) });
    failedWith('thrown by the endpoint');
  });

  it('once loaded, the endpoint’s sync throw is a 500, logged; the next request is answered', async () => {
    mode = 'throw';
    expect(await send()).toEqual({ status: 500, body: JSON.stringify(INTERNAL) });
    failedWith('thrown by the endpoint');
    mode = 'answer';
    expect(await send()).toMatchObject({ status: 200 });
  });

  it('a sync throw after the head went out ends the answer rather than leaving it open', async () => {
    mode = 'throw-after-head';
    expect(await send()).toEqual({ status: 200, body: ': first\n\n' });
    failedWith('thrown after the head');
    mode = 'answer';
  });

  it('a sync throw that is a hang-up is not logged as a failure; the socket is dropped', async () => {
    mode = 'hang-up';
    const r = await send();
    expect(r).toHaveProperty('error');
    expect(errors).not.toHaveBeenCalled();
    expect(debugs).toHaveBeenCalledWith('request ended: the client went away', {
      path: '/mcp',
      error: 'peer went away',
    });
    mode = 'answer';
  });

  it('control routes: a sync throw and a rejection are both a 500, logged', async () => {
    eventsThrow = true;
    expect(await send('/api/events', 'GET')).toEqual({
      status: 500,
      body: JSON.stringify(INTERNAL),
    });
    failedWith('thrown by the event stream', '/api/events');
    eventsThrow = false;
    expect(await send('/api/rpc')).toEqual({ status: 500, body: JSON.stringify(INTERNAL) });
    failedWith('rejected by the control API', '/api/rpc');
  });
});

describe('a failed lazy load (review)', () => {
  it('is a 500, logged, and the next request loads again', async () => {
    const fresh = new LazyMcpEndpoint(() => {
      loads++;
      return failLoad ? Promise.reject(new Error('load failed')) : Promise.resolve(endpoint);
    });
    const g = new Gateway({
      mcp: fresh,
      control: { closeStreams: () => {} } as unknown as ControlRoutes,
      authenticateAgent: () => 'agent',
      logger,
      version: 'test',
      maxBodyBytes: () => 1 << 20,
      uiDir: tempDir('airlock-ui-'),
    });
    const saved = port;
    port = await g.start(0);
    try {
      failLoad = true;
      mode = 'answer';
      expect(await send()).toEqual({ status: 500, body: JSON.stringify(INTERNAL) });
      failedWith('load failed');
      failLoad = false;
      expect(await send()).toMatchObject({ status: 200 });
    } finally {
      await g.stop(100);
      port = saved;
    }
  });
});
