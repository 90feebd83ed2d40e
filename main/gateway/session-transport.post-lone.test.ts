import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionTransport } from './session-transport.js';

/**
 * SessionTransport.postLone passes the everyday request's Accept and session checks in place
 * (issue 34) and runs accepts and checkSession, in post()'s order and terms, for every other one.
 * LegacySessions only hands a transport requests whose Mcp-Session-Id is its own, so these
 * checks are reached here directly: each refusal as post() makes it, and the one request that
 * passes all of them.
 */
class Res extends EventEmitter {
  headersSent = false;
  destroyed = false;
  status = 0;
  body = '';
  writeHead(status: number): this {
    this.status = status;
    this.headersSent = true;
    return this;
  }
  end(body?: string): this {
    this.body += body ?? '';
    return this;
  }
}

const ACCEPT = 'application/json, text/event-stream';
const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'a', version: '1' },
  },
};
const req = (headers: Record<string, unknown>, method = 'POST') =>
  ({ method, headers: { 'content-type': 'application/json', ...headers } }) as IncomingMessage;

let t: SessionTransport;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  t = new SessionTransport({
    newSessionId: () => 'SID',
    onsessioninitialized: () => {},
    onsessionclosed: () => {},
  });
  t.setSupportedProtocolVersions([LATEST_PROTOCOL_VERSION]);
  t.onmessage = () => {};
});
afterEach(() => vi.useRealTimers());

function initialize(): void {
  t.handle(req({ accept: ACCEPT }), new Res() as unknown as ServerResponse, INIT, {
    token: 't',
    clientId: 'a',
    scopes: [],
  });
}

function lone(headers: Record<string, unknown>): { taken: boolean; res: Res } {
  const res = new Res();
  return { taken: t.postLone(req(headers), res as unknown as ServerResponse, 7), res };
}

describe('postLone: the checks of post(), the everyday one in place', () => {
  it('takes the everyday request: both media types, its own session id, a version it serves', () => {
    initialize();
    const { taken, res } = lone({
      accept: ACCEPT,
      'mcp-session-id': 'SID',
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
    });
    expect(taken).toBe(true);
    expect(res.status).toBe(0);
    expect(t.busy()).toBe(true);
  });

  it('refuses before initialize (400), as checkSession does', () => {
    const { taken, res } = lone({ accept: ACCEPT, 'mcp-session-id': 'SID' });
    expect([taken, res.status]).toEqual([false, 400]);
    expect(res.body).toContain('Server not initialized');
  });

  it('refuses a missing Accept type (406) before anything else', () => {
    initialize();
    const { taken, res } = lone({ accept: 'application/json', 'mcp-session-id': 'other' });
    expect([taken, res.status]).toEqual([false, 406]);
  });

  it('refuses no session id (400) and another session id (404)', () => {
    initialize();
    const none = lone({ accept: ACCEPT });
    expect([none.taken, none.res.status]).toEqual([false, 400]);
    expect(none.res.body).toContain('Mcp-Session-Id header is required');
    const other = lone({ accept: ACCEPT, 'mcp-session-id': 'OTHER' });
    expect([other.taken, other.res.status]).toEqual([false, 404]);
    const empty = lone({ accept: ACCEPT, 'mcp-session-id': '' });
    expect([empty.taken, empty.res.status]).toEqual([false, 400]);
  });

  it('refuses a protocol version it does not serve (400)', () => {
    initialize();
    const { taken, res } = lone({
      accept: ACCEPT,
      'mcp-session-id': 'SID',
      'mcp-protocol-version': '1999-01-01',
    });
    expect([taken, res.status]).toEqual([false, 400]);
    expect(res.body).toContain('Unsupported protocol version');
  });

  it('an empty session id never passes, even where the session was given one', () => {
    t = new SessionTransport({
      newSessionId: () => '',
      onsessioninitialized: () => {},
      onsessionclosed: () => {},
    });
    t.setSupportedProtocolVersions([LATEST_PROTOCOL_VERSION]);
    t.onmessage = () => {};
    initialize();
    const { taken, res } = lone({ accept: ACCEPT, 'mcp-session-id': '' });
    expect([taken, res.status]).toEqual([false, 400]);
  });
});
