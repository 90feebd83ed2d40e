import { randomBytes } from 'node:crypto';
import {
  ProtocolError,
  UrlElicitationRequiredError,
  type Server,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { signedInSource } from '../../test-support/signed-in-source.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import type { ClientRelay, RelayRequest } from '../tools/relay.js';
import { RemoteSource } from './remote-source.js';

/**
 * Issue 10 "Must hold" (no OAuth token in anything an agent reads, even when echoed), for two
 * channels besides an answer's text: a URL step (-32042) relayed to the agent as a URL-mode
 * elicitation/create (a 2026-07-28 agent, or a 2025 one without URL elicitation passed on as the
 * error), and the `data` of an upstream's JSON-RPC error to resources/read.
 */
const cleanup = cleanupAfterEach();
const TOKEN = `at_${randomBytes(24).toString('base64url')}`;

function seen(ctx: unknown): string {
  return String(
    (ctx as { http?: { req?: { headers?: Headers } } }).http?.req?.headers?.get('authorization'),
  );
}

function echoInErrorData(server: Server): void {
  server.setRequestHandler('resources/list', async () => ({
    resources: [{ uri: 'echo://data', name: 'data' }],
  }));
  server.setRequestHandler('resources/read', async (_req, ctx) => {
    throw new ProtocolError(-32602, 'cannot read', { sent: seen(ctx) });
  });
}

async function signedIn(): Promise<RemoteSource> {
  const up = new FakeUpstream({
    tools: [
      {
        name: 'connect',
        annotations: { readOnlyHint: true },
        run: async (_a, c) => {
          const sent = String(c.headers.authorization).replace(/^Bearer /, '');
          throw new UrlElicitationRequiredError(
            [
              {
                mode: 'url',
                elicitationId: 'e1',
                url: 'https://auth.example.com/connect',
                message: `you sent ${String(c.headers.authorization)}`,
              },
              {
                mode: 'url',
                elicitationId: 'e2',
                url: `https://auth.example.com/connect?t=${sent}`,
                message: 'with the token in the link',
              },
            ],
            'Connect first',
          );
        },
      },
    ],
    bearer: TOKEN,
    capabilities: { resources: {} },
    extend: echoInErrorData,
  });
  await up.start();
  cleanup.push(() => up.stop());
  return (await signedInSource(up.url, TOKEN, cleanup)).s;
}
const ctx = () => ({ agent: 'a', signal: new AbortController().signal });

describe('an OAuth token echoed outside an answer', () => {
  it('is not in a URL step relayed to the agent as elicitation/create', async () => {
    const s = await signedIn();
    const asked: RelayRequest[] = [];
    // A 2026-07-28 agent (no session): the step goes to it as a URL-mode elicitation.
    const relay: ClientRelay = {
      agent: 'a',
      refusal: () => null,
      request: async (req) => {
        asked.push(req);
        return { action: 'decline' };
      },
    };
    const r = JSON.stringify(await s.call('connect', {}, { ...ctx(), relay }));
    const shown = JSON.stringify(asked.map((a) => a.params));
    expect(shown).toContain('you sent Bearer [redacted]'); // the step did reach the agent
    expect(shown.includes(TOKEN), `the relayed step hands the agent the token: ${shown}`).toBe(
      false,
    );
    expect(r.includes(TOKEN), `the answer hands the agent the token: ${r}`).toBe(false);
  });

  it("is not in the data of the upstream's JSON-RPC error", async () => {
    const s = await signedIn();
    const err = await s.readResource('echo://data', ctx()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProtocolError);
    const data = JSON.stringify((err as ProtocolError).data);
    expect(data).toContain('sent'); // the upstream's data came back
    expect(data.includes(TOKEN), `the error's data hands the agent the token: ${data}`).toBe(false);
  });
});
