import { UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Logger } from '../platform/log.js';
import type { ClientRelay, RelayRequest } from '../tools/relay.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { RemoteSource } from './remote-source.js';
import { UNTRUSTED_META_KEY } from './untrusted.js';

/**
 * An upstream's "URL elicitation required" error (MCP 2025-11-25, `-32042`) reaches the user:
 * as URL-mode elicitations to an agent that declared them, else as links in the answer. Only
 * http(s) links pass; the call says it did not run.
 */
let up: FakeUpstream;
let source: RemoteSource;

beforeAll(async () => {
  up = new FakeUpstream({
    tools: [
      {
        name: 'agenda',
        run: async () => {
          throw new UrlElicitationRequiredError(
            [
              {
                mode: 'url',
                elicitationId: 'e1',
                url: 'https://auth.example.com/connect?state=1',
                message: 'Connect your calendar',
              },
              {
                mode: 'url',
                elicitationId: 'e2',
                url: 'javascript:alert(1)',
                message: 'not a link',
              },
            ],
            'Calendar not connected',
          );
        },
      },
    ],
  });
  await up.start();
  source = new RemoteSource(
    { name: 'cal', url: up.url, headers: {} },
    { logger: new Logger({ stderr: false }), version: 'test' },
  );
  source.start();
  await source.ready();
});
afterAll(async () => {
  await source.stop();
  await up.stop();
});

function relay(answer: Record<string, unknown> | null): ClientRelay & { seen: RelayRequest[] } {
  const seen: RelayRequest[] = [];
  return {
    agent: 'a',
    seen,
    refusal: () => (answer ? null : 'the agent did not declare URL-mode elicitation'),
    request: async (r) => {
      seen.push(r);
      return answer ?? {};
    },
  };
}

const text = (r: { content?: unknown }) =>
  ((r.content as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

describe('an upstream that needs the user in a browser first (-32042)', () => {
  it('an agent with URL elicitation is shown the http(s) link; the call says it did not run', async () => {
    const r = relay({ action: 'accept' });
    const result = await source.call(
      'agenda',
      {},
      { agent: 'a', signal: new AbortController().signal, relay: r },
    );
    expect(r.seen).toHaveLength(1);
    expect(r.seen[0]).toMatchObject({
      method: 'elicitation/create',
      server: 'cal',
      params: {
        mode: 'url',
        url: 'https://auth.example.com/connect?state=1',
        elicitationId: 'e1',
        message: 'Connect your calendar',
      },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /did not run the call: it needs the user to finish a step in the browser first\. The user was shown the link \(auth\.example\.com\); call again/,
    );
    expect(text(result)).not.toContain('javascript:');
    expect(result._meta?.[UNTRUSTED_META_KEY]).toMatchObject({ server: 'cal' });
  });

  it("an agent without it gets the link and the server's words in the answer", async () => {
    const r = relay(null);
    const result = await source.call(
      'agenda',
      {},
      { agent: 'a', signal: new AbortController().signal, relay: r },
    );
    expect(r.seen).toHaveLength(0);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      'Ask the user to open this link and finish there, then call again: https://auth.example.com/connect?state=1 (the server says: Connect your calendar)',
    );
    expect(text(result)).not.toContain('javascript:');
  });

  it('a declined link is listed in the answer too', async () => {
    const r = relay({ action: 'decline' });
    const result = await source.call(
      'agenda',
      {},
      { agent: 'a', signal: new AbortController().signal, relay: r },
    );
    expect(r.seen).toHaveLength(1);
    expect(text(result)).toContain('https://auth.example.com/connect?state=1');
  });
});
