import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { createGzip, constants as zlib } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { upstreamInFlight } from '../upstream/in-flight.js';
import { leanFetch } from './lean-fetch.js';

/**
 * The in-flight budget (upstream/in-flight.ts) is process-wide: a share a cancelled or cut answer
 * never gives back is lost for good, and enough of them refuse every large answer after. A
 * compressed answer cancelled mid-body is the case here: its decoder still holds a piece it was
 * given before the cut, and hands it over after the reader has ended and let its share go.
 * Before (review of h-mem): that late piece was counted again and never released.
 */
const cleanup = cleanupAfterEach();

describe('a compressed answer cancelled mid-body', () => {
  it('gives back all of its in-flight share, also for a piece its decoder hands over after the cut', async () => {
    const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      const gz = createGzip({ flush: zlib.Z_SYNC_FLUSH });
      gz.pipe(res);
      // The head of a large answer, never finished.
      gz.write(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`);
      gz.write('A'.repeat(2 * 1024 * 1024));
      gz.flush();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const cancel = new AbortController();

    // The client's response, to cancel the request just as its first piece reaches the decoder,
    // and to see the decoder hand over a piece after that.
    let lateOutput: Promise<void> | undefined;
    const onResponse = (m: unknown) => {
      const res = (m as { response: IncomingMessage }).response;
      const pipe = res.pipe.bind(res);
      res.pipe = (<T extends Writable>(decoder: T) => {
        const piped = pipe(decoder);
        lateOutput = new Promise((resolve) =>
          decoder.on('data', () => {
            if (res.destroyed) resolve();
          }),
        );
        // After the pipe's own listener: this piece is already written to the decoder.
        res.once('data', () => cancel.abort(new Error('cancelled')));
        return piped;
      }) as typeof res.pipe;
    };
    subscribe('http.client.response.finish', onResponse);
    cleanup.push(async () => unsubscribe('http.client.response.finish', onResponse));

    const fetch = leanFetch({});
    const res = await fetch(url, { method: 'POST', body: '{}', signal: cancel.signal });
    await expect(res.json()).rejects.toThrow();
    expect(lateOutput).toBeDefined();
    await lateOutput; // the decoder did hand over a piece after the cut (not vacuous)
    await new Promise((r) => setImmediate(r));
    expect(upstreamInFlight().now).toBe(0);
  });
});
