import { describe, expect, it } from 'vitest';
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { LOG_LEVELS } from '../tools/features.js';
import type { ClientRelay, RelayedLog } from '../tools/relay.js';
import { onLine, RoundLine, type RequestLine } from './mcp-handlers/round-line.js';

/**
 * The line from a 2026-07-28 call to the agent request open now (round-line.ts): what the upstream
 * sends goes to that request; between an input_required answer and the retry, progress is held
 * (the latest) for the retry and log lines have no request (level unset: they go to the agent's
 * listen streams instead). round-progress.test.ts drives it end to end.
 */
function request(): RequestLine & { got: unknown[][]; lines: RelayedLog[] } {
  const got: unknown[][] = [];
  const lines: RelayedLog[] = [];
  return {
    got,
    lines,
    progress: (...args) => void got.push(args),
    level: 'info',
    log: (line) => {
      lines.push(line);
      return Promise.resolve();
    },
  };
}

describe('RoundLine', () => {
  it('moves progress and log lines to each request in turn, and holds the latest progress between them', async () => {
    const first = request();
    const line = new RoundLine(first);
    const named = line.progress.request!();
    line.progress(1, 10, 'one');
    await line.log({ level: 'info', data: 'a' });
    expect(line.level).toBe('info');

    line.to(undefined); // answered input_required
    expect(line.progress.request!()).not.toBe(named);
    const between = line.progress.request!();
    line.progress(2, 10, 'two');
    line.progress(3, 10, 'three', { k: 1 });
    expect(line.level).toBeUndefined();
    await expect(line.log({ level: 'info', data: 'b' })).rejects.toThrow(/no request/);

    const retry = request();
    line.to(retry);
    // The value naming the request stays from the answer on: the held value and what follows
    // belong to the retry's token together.
    expect(line.progress.request!()).toBe(between);
    line.progress(4, 10, 'four');
    await line.log({ level: 'warning', data: 'c' });

    expect(first.got).toEqual([[1, 10, 'one']]);
    expect(retry.got).toEqual([
      [3, 10, 'three', { k: 1 }],
      [4, 10, 'four'],
    ]);
    expect(first.lines.map((l) => l.data)).toEqual(['a']);
    expect(retry.lines.map((l) => l.data)).toEqual(['c']);
  });

  it('a retry without a progressToken or level gets none, and the held value is not kept for later', () => {
    const line = new RoundLine(request());
    line.to(undefined);
    line.progress(5);
    line.to({});
    expect(line.level).toBeUndefined();
    const later = request();
    line.to(undefined);
    line.to(later);
    expect(later.got).toEqual([]);
  });
});

describe('log levels', () => {
  // requestLog ranks a line against the request's level by levelRank, in place of the SDK's
  // ctx.mcpReq.log (which drops `_meta`): the same decision, since the order is the SDK's own.
  it("are ranked in the SDK's own order", () => {
    expect(LOG_LEVELS).toEqual(
      (specTypeSchemas.LoggingLevel as unknown as { options: string[] }).options,
    );
  });
});

describe('onLine', () => {
  it("reads the relay's done when it is done, not when it was wrapped (relay.ts sets it with the ledger)", () => {
    const relay = { agent: 'a' } as ClientRelay;
    const wrapped = onLine(relay, new RoundLine(request()));
    expect(wrapped.done).toBeUndefined();
    const flushed: string[] = [];
    (relay as { done?: () => void }).done = () => void flushed.push('flushed');
    wrapped.done?.();
    expect(flushed).toEqual(['flushed']);
  });
});
