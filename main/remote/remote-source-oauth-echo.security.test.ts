import { randomBytes } from 'node:crypto';
import { UrlElicitationRequiredError, type Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { signedInSource } from '../../test-support/signed-in-source.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { RemoteSource } from './remote-source.js';

/**
 * Issue 10 "Must hold" (no OAuth token in an MCP response, even when echoed), for what an agent
 * reads besides tools/call: resources/read, prompts/get, completion/complete (RemoteSource.onUp).
 * The redactor learns an OAuth connection's token values at syncSecrets(); a token the transport
 * has just loaded or renewed must be known before any answer that could echo it is passed on —
 * here the agent's first request after the app started with a saved sign-in.
 */
const cleanup = cleanupAfterEach();
const TOKEN = `at_${randomBytes(24).toString('base64url')}`;

function echoAuthorization(server: Server): void {
  const seen = (ctx: unknown) =>
    String(
      (ctx as { http?: { req?: { headers?: Headers } } }).http?.req?.headers?.get('authorization'),
    );
  server.setRequestHandler('resources/list', async () => ({
    resources: [{ uri: 'echo://auth', name: 'auth' }],
  }));
  server.setRequestHandler('resources/read', async (req, ctx) => {
    if (req.params.uri === 'echo://fail') throw new Error(`cannot read with ${seen(ctx)}`);
    return { contents: [{ uri: req.params.uri, text: `you sent ${seen(ctx)}` }] };
  });
  server.setRequestHandler('prompts/list', async () => ({ prompts: [{ name: 'auth' }] }));
  server.setRequestHandler('prompts/get', async (_req, ctx) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `you sent ${seen(ctx)}` } }],
  }));
}

describe('an OAuth token echoed by a resource or a prompt', () => {
  async function signedIn(): Promise<RemoteSource> {
    const up = new FakeUpstream({
      tools: [
        {
          // A careless server puts the credential it was sent into a URL step (-32042).
          name: 'connect',
          annotations: { readOnlyHint: true },
          run: async (_a, c) => {
            throw new UrlElicitationRequiredError(
              [
                {
                  mode: 'url',
                  elicitationId: 'e1',
                  url: 'https://auth.example.com/connect',
                  message: `you sent ${String(c.headers.authorization)}`,
                },
              ],
              'Connect first',
            );
          },
        },
      ],
      bearer: TOKEN,
      capabilities: { resources: {}, prompts: {} },
      extend: echoAuthorization,
    });
    await up.start();
    cleanup.push(() => up.stop());
    return (await signedInSource(up.url, TOKEN, cleanup)).s;
  }
  const ctx = () => ({ agent: 'a', signal: new AbortController().signal });

  it('is redacted on the first request after a start with a saved sign-in', async () => {
    const s = await signedIn();
    const read = JSON.stringify(await s.readResource('echo://auth', ctx()));
    expect(read).toContain('you sent'); // the upstream did echo the header
    expect(read.includes(TOKEN), 'resources/read hands the agent the access token').toBe(false);
    const prompt = JSON.stringify(await s.getPrompt('auth', undefined, ctx()));
    expect(prompt.includes(TOKEN), 'prompts/get hands the agent the access token').toBe(false);
  });

  it("is redacted from the upstream's error, the first request's too", async () => {
    const s = await signedIn();
    const failed = await s.readResource('echo://fail', ctx()).then(
      () => 'answered',
      (e: Error) => e.message,
    );
    expect(failed).toContain('cannot read'); // the upstream's own error text came back
    expect(failed.includes(TOKEN), 'the error hands the agent the access token').toBe(false);
  });

  it("is redacted from a URL step, the first call's too", async () => {
    const s = await signedIn();
    const r = JSON.stringify(await s.call('connect', {}, ctx()));
    expect(r).toContain('auth.example.com/connect'); // the step came back, as a link
    expect(r.includes(TOKEN), 'the URL step hands the agent the access token').toBe(false);
  });
});
