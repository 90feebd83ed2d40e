import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Server, type ServerContext } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Logger } from '../../platform/log.js';
import { relayLabel } from '../../tools/relay-label.js';
import { Redactor } from '../connection/redact.js';
import { DEFAULT_TIMINGS } from '../connection/timings.js';
import type { Upstream } from '../upstream/upstream.js';
import { RemoteFeatures } from './remote-features.js';

/**
 * Review of progress on reads (read-progress.test.ts): progress resets a read's idle bound
 * (resetTimeoutOnProgress), so a server that reports progress and never answers held the read —
 * and the agent's request, and its stream of progress — open for ever. A call has a whole bound
 * (callMaxMs); a read with progress now has the same. And the server's progress message on a read
 * is redacted and labelled as on a call (server-progress.ts).
 */
const IDLE_MS = 1_000;
const MAX_MS = 5_000;
const SECRET = 'hdr-secret-0123456789';

afterEach(() => void vi.useRealTimers());

/** A server whose read reports progress when told and answers only when the request ends. */
async function reporting() {
  const server = new Server({ name: 'svc', version: '1' }, { capabilities: { resources: {} } });
  const reads: { ctx: ServerContext; token: string | number }[] = [];
  let arrive!: () => void;
  const arrived = new Promise<void>((r) => (arrive = r));
  server.setRequestHandler('resources/read', (req, ctx) => {
    const token = req.params._meta?.progressToken;
    if (token !== undefined) reads.push({ ctx, token });
    arrive();
    return new Promise<never>(() => {});
  });
  const client = new Client({ name: 'airlock', version: '1' }, { capabilities: {} });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(b as never), client.connect(a)]);
  const up: Upstream = {
    client,
    transport: 'http' as Upstream['transport'],
    protocolVersion: undefined,
    hasSession: () => false,
    close: () => client.close(),
  };
  const step = (progress: number, message?: string) =>
    reads[0]!.ctx.mcpReq.notify({
      method: 'notifications/progress',
      params: { progressToken: reads[0]!.token, progress, ...(message ? { message } : {}) },
    });
  return { up, reads, arrived, step, close: () => Promise.all([client.close(), server.close()]) };
}

function features(): RemoteFeatures {
  const redactor = new Redactor();
  redactor.set([SECRET]);
  return new RemoteFeatures('svc', IDLE_MS, new Logger({ stderr: false }), redactor, {
    t: { ...DEFAULT_TIMINGS, callIdleMs: IDLE_MS, callMaxMs: MAX_MS },
  });
}

describe('a read with progress', () => {
  it('ends at the whole bound however often the server reports, and its words are redacted and labelled', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const s = await reporting();
    const seen: { progress: number; message: string | undefined }[] = [];
    const read = features()
      .readResource(s.up, 'mem://slow', {
        agent: 'a',
        signal: new AbortController().signal,
        progress: (progress, _total, message) => void seen.push({ progress, message }),
      })
      .then(
        () => 'answered',
        (e: unknown) => e,
      );
    await s.arrived;
    expect(s.reads, 'the read went without a progress token').toHaveLength(1);
    await s.step(1, `using ${SECRET}`);
    // Each step comes within the idle bound, so only the whole bound can end the read.
    let ended: unknown;
    void read.then((r) => (ended = r));
    for (let i = 2; i <= 12 && ended === undefined; i++) {
      await vi.advanceTimersByTimeAsync(IDLE_MS / 2);
      if (ended === undefined) await s.step(i);
    }
    expect(ended, 'the read was still open past its whole bound').toBeInstanceOf(Error);
    expect(String((ended as Error).message)).toMatch(/timeout exceeded/i);
    expect(seen[0]).toEqual({ progress: 1, message: `${relayLabel('svc')} using [redacted]` });
    await s.close();
  });
});
