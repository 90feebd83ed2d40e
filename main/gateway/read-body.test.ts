import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyTooLargeError, readBody } from './guards.js';

/**
 * readBody (guards.ts) on 'data'/'end' listeners (issue 34), against a real node:http server and
 * client: what the `for await` it replaced did on the way out must still hold — a body in many
 * chunks whole, a body past the limit refused (declared or streamed), and a client that goes away
 * (mid-body, or before the body is read at all) rejects rather than leaving the request hanging.
 */
type Read = (req: IncomingMessage) => Promise<Buffer>;
let handle: (req: IncomingMessage) => void = () => {};
const server = createServer((req, res) => {
  handle(req);
  res.on('error', () => {});
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** Sends `chunks` one write each (chunked without a length), and ends unless `keepOpen`. */
function post(chunks: string[], opts: { length?: number; keepOpen?: boolean } = {}) {
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/',
    headers: opts.length !== undefined ? { 'content-length': String(opts.length) } : {},
  });
  req.on('error', () => {});
  req.on('response', (res) => res.resume());
  for (const c of chunks) req.write(c);
  if (!opts.keepOpen) req.end();
  return req;
}

/** The result of `read` on the next request the server gets. */
function nextRead(read: Read): Promise<{ ok: true; body: string } | { ok: false; err: Error }> {
  return new Promise((resolve) => {
    handle = (req) => {
      read(req).then(
        (b) => resolve({ ok: true, body: b.toString('utf8') }),
        (err: Error) => resolve({ ok: false, err }),
      );
    };
  });
}

describe('readBody', () => {
  it('a body in many chunks arrives whole, multi-byte characters across chunk edges included', async () => {
    const got = nextRead((req) => readBody(req, 1 << 20));
    const parts = ['{"a":"', '€'.repeat(5000), '😀', '"}'];
    post(parts);
    expect(await got).toEqual({ ok: true, body: parts.join('') });
  });

  it('an empty body is an empty buffer', async () => {
    const got = nextRead((req) => readBody(req, 10));
    post([], { length: 0 });
    expect(await got).toEqual({ ok: true, body: '' });
  });

  it('past the limit: declared, or streamed without a length, it is refused', async () => {
    const declared = nextRead((req) => readBody(req, 10));
    post(['x'.repeat(11)], { length: 11 });
    expect(await declared).toMatchObject({ ok: false, err: expect.any(BodyTooLargeError) });
    const streamed = nextRead((req) => readBody(req, 10));
    post(['x'.repeat(6), 'y'.repeat(6)]);
    expect(await streamed).toMatchObject({ ok: false, err: expect.any(BodyTooLargeError) });
  });

  it('a client that hangs up mid-body: rejected with a hang-up code http-server.ts knows', async () => {
    let arrived!: () => void;
    const reading = new Promise<void>((r) => (arrived = r));
    const got = nextRead((req) => {
      const body = readBody(req, 1 << 20);
      req.once('data', () => arrived());
      return body;
    });
    const client = post(['{"half":'], { length: 100, keepOpen: true });
    await reading; // the server holds part of the body
    client.destroy();
    const r = await got;
    expect(r.ok).toBe(false);
    const code = (r as { err: { code?: string } }).err.code;
    expect(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE']).toContain(code);
  });

  it('a body read a second time, once the stream has ended, is empty rather than a wait', async () => {
    const got = nextRead(async (req) => {
      await readBody(req, 1 << 20);
      return readBody(req, 1 << 20);
    });
    post(['{}']);
    expect(await got).toEqual({ ok: true, body: '' });
  });

  it('a request already gone when its body is read rejects instead of waiting forever', async () => {
    const got = nextRead(async (req) => {
      const closed = new Promise((r) => req.once('close', r));
      req.destroy();
      await closed;
      return readBody(req, 1 << 20);
    });
    post(['{}'], { length: 2 });
    expect(await got).toMatchObject({ ok: false });
  });
});
