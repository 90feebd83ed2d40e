import type { IncomingMessage } from 'node:http';
import { Readable, Transform } from 'node:stream';
import { once } from 'node:events';
import { createGzip, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { leanResponse, UPSTREAM_MESSAGE_LIMIT } from './lean-fetch.js';

/**
 * Content-coding lists (lean-fetch.ts `decodersFor`, as undici's fetch decodes them) open a
 * nested decompression bomb: `gzip, gzip` turns a few KB into gigabytes. The decoded text is
 * bounded as a single coding's is (UPSTREAM_MESSAGE_LIMIT): the answer is refused with the
 * limit's error and every decoder of the chain stops. A corrupt inner layer fails the body with
 * `terminated` and stops the whole chain too.
 */

const url = new URL('http://upstream.test/mcp');

function nodeResponse(ps: Buffer[], headers: Record<string, string>): IncomingMessage {
  const left = [...ps];
  const r = new Readable({
    read() {
      setImmediate(() => this.push(left.length > 0 ? left.shift() : null));
    },
  });
  return Object.assign(r, {
    headers: { 'content-type': 'application/json', ...headers },
    statusCode: 200,
    statusMessage: 'OK',
    complete: true,
  }) as unknown as IncomingMessage;
}

/** `size` bytes of spaces gzipped, streamed so the test holds only the compressed form. */
async function gzipOfSpaces(size: number, level = 9): Promise<Buffer> {
  const gz = createGzip({ level });
  const parts: Buffer[] = [];
  gz.on('data', (c: Buffer) => parts.push(c));
  const ended = new Promise((r) => gz.on('end', r));
  const block = Buffer.alloc(1024 * 1024, 0x20);
  for (let n = 0; n < size; n += block.length)
    if (!gz.write(block)) await new Promise((r) => gz.once('drain', r));
  gz.end();
  await ended;
  return Buffer.concat(parts);
}

/** The decoders lean-fetch chains while `run` runs: what the body is piped into. */
async function watchingDecoders(run: () => Promise<void>): Promise<{ destroyed: boolean }[]> {
  const made: { destroyed: boolean }[] = [];
  const pipe = Readable.prototype.pipe;
  Readable.prototype.pipe = function <T extends NodeJS.WritableStream>(
    this: Readable,
    dest: T,
    o?: { end?: boolean },
  ) {
    made.push(dest as unknown as { destroyed: boolean });
    return pipe.call(this, dest, o) as T;
  };
  try {
    await run();
  } finally {
    Readable.prototype.pipe = pipe;
  }
  return made;
}

describe('nested content codings: bounded, and stopped whole', () => {
  const limitPlus = UPSTREAM_MESSAGE_LIMIT + 8 * 1024 * 1024;

  it('a `gzip, gzip` bomb (a few KB on the wire) is refused at the limit, every decoder stopped', async () => {
    const wire = gzipSync(await gzipOfSpaces(limitPlus), { level: 9 });
    expect(wire.length).toBeLessThan(16 * 1024);
    const made = await watchingDecoders(async () => {
      const res = leanResponse(
        url,
        nodeResponse([wire], { 'content-encoding': 'gzip, gzip' }),
        undefined,
        () => {},
      );
      await expect(res.json()).rejects.toThrow(/larger than 64 MiB/);
    });
    expect(made).toHaveLength(2);
    expect(made.every((d) => d.destroyed)).toBe(true);
  });

  it('a raw `deflate` over a gzip bomb likewise', async () => {
    const wire = deflateRawSync(await gzipOfSpaces(limitPlus), { level: 9 });
    const made = await watchingDecoders(async () => {
      const res = leanResponse(
        url,
        nodeResponse([wire], { 'content-encoding': 'gzip, deflate' }),
        undefined,
        () => {},
      );
      await expect(res.json()).rejects.toThrow(/larger than 64 MiB/);
    });
    expect(made.length).toBeGreaterThanOrEqual(2);
    expect(made.every((d) => d.destroyed)).toBe(true);
  });

  it('a raw `deflate` layer keeps back-pressure: what it inflates waits, not buffered past the limit', async () => {
    // The deflate layer inflates to a stored (level 0) gzip stream larger than the limit, which
    // the gunzip after it turns back into text no faster than it reads it: undici's InflateStream
    // (lean-fetch.ts `Inflate` before this) buffered ≈ 64 MiB of it, outside the in-flight budget.
    const wire = deflateRawSync(await gzipOfSpaces(limitPlus, 0), { level: 9 });
    let most = 0;
    const push = Transform.prototype.push;
    Transform.prototype.push = function (this: Transform, chunk: unknown, enc?: BufferEncoding) {
      const pushed = push.call(this, chunk, enc);
      most = Math.max(most, this.readableLength);
      return pushed;
    };
    try {
      const res = leanResponse(
        url,
        nodeResponse([wire], { 'content-encoding': 'gzip, deflate' }),
        undefined,
        () => {},
      );
      await expect(res.json()).rejects.toThrow(/larger than 64 MiB/);
    } finally {
      Transform.prototype.push = push;
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(1024 * 1024);
  });

  it('and, paused, hands over all it holds before it ends: a large `gzip, deflate` answer arrives whole', async () => {
    const text = 'é'.repeat(3 * 1024 * 1024);
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text } }));
    const wire = deflateRawSync(gzipSync(body, { level: 0 }));
    const res = leanResponse(
      url,
      nodeResponse([wire], { 'content-encoding': 'gzip, deflate' }),
      undefined,
      () => {},
    );
    const got = (await res.json()) as { result: { text: string } };
    expect(got.result.text.length).toBe(text.length);
    expect(got.result.text === text).toBe(true);
  });

  it('a `deflate` body with bytes after its end is read as fetch reads it, and its decoder finishes', async () => {
    const body = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}');
    for (const coded of [deflateRawSync(body), deflateSync(body)]) {
      const res = nodeResponse([coded, Buffer.from([1, 2, 3, 4, 5])], {
        'content-encoding': 'deflate',
      });
      const ended = once(res, 'end');
      const made = await watchingDecoders(async () => {
        const lean = leanResponse(url, res, undefined, () => {});
        expect(await lean.json()).toEqual(JSON.parse(body.toString()));
      });
      await ended;
      await new Promise((r) => setImmediate(r));
      // The inner inflater ended at the stream's end, before the body did: `_final` does not wait
      // for an end already past (it would never come, and the decoder would never finish).
      expect(
        made.map((d) => (d as unknown as { writableFinished: boolean }).writableFinished),
      ).toEqual([true]);
    }
  });

  it('a corrupt inner layer fails the body as `terminated`, and the outer decoder stops too', async () => {
    const inner = gzipSync(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}'));
    inner[12] = inner[12]! ^ 0xff; // the deflate data, not the header: gunzip fails mid-body
    const wire = gzipSync(inner);
    let done = 0;
    const made = await watchingDecoders(async () => {
      const res = leanResponse(
        url,
        nodeResponse([wire], { 'content-encoding': 'gzip, gzip' }),
        undefined,
        () => void done++,
      );
      await expect(res.json()).rejects.toThrow('terminated');
    });
    expect(done).toBe(1);
    expect(made).toHaveLength(2);
    expect(made.map((d) => d.destroyed)).toEqual([true, true]);
  });
});
