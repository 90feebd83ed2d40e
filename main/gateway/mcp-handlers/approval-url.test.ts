import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { nextRequest } from '../../../test-support/core-events.js';
import {
  CountingSource,
  startTestApp,
  textOf,
  type TestApp,
} from '../../../test-support/harness.js';

// Issue 16 item 1 "Must hold": SDK clients that declare URL elicitation get the approval URL
// (no token in it), the user approves, the client's retry returns the result, the tool ran once.

let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function setup(mode: 'legacy' | 'auto', url: boolean) {
  const source = new CountingSource();
  t = await startTestApp({ sources: [source] });
  const client = new Client(
    { name: 'url-client', version: '1.0.0' },
    {
      versionNegotiation: { mode },
      capabilities: url ? { elicitation: { url: {} } } : {},
    },
  );
  const urls: string[] = [];
  if (url) {
    client.setRequestHandler('elicitation/create', async (req) => {
      const params = req.params as { mode?: string; url?: string };
      urls.push(`${params.mode}:${params.url}`);
      // The user opens the link and approves there; the client then retries on its own.
      const pending = await t!.app.control.listPending();
      await t!.app.control.decide(pending[0]!.id, { kind: 'allow_once' });
      return { action: 'accept' };
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    }),
  );
  return { source, client, app: t.app, urls, controlToken: controlTokenOf(t) };
}

const controlTokenOf = (app: TestApp) =>
  new URL(app.started.controlUrl).hash.replace(/^#token=/, '');

describe('approval through URL elicitation', () => {
  for (const mode of ['auto', 'legacy'] as const) {
    it(`${mode === 'auto' ? '2026-07-28 input_required' : '2025-11-25 elicitation/create'}: the client gets the approval URL without a token, the retry runs the call once`, async () => {
      const { source, client, app, urls, controlToken } = await setup(mode, true);
      const requested = nextRequest(app);
      const result = await client.callTool({
        name: 'count_send',
        arguments: { to: 'bob@example.com' },
      });
      const req = await requested;
      expect(urls).toHaveLength(1);
      expect(urls[0]).toBe(`url:${new URL(t!.started.mcpUrl).origin}/#/approve/${req.id}`);
      expect(urls[0]).not.toContain(controlToken);
      expect(urls[0]).not.toContain('token');
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toMatch(/count_send ok/);
      expect(source.count('count_send')).toBe(1);
      expect((await app.control.getApproval(req.id)).state).toBe('done');
      expect(await app.control.listPending()).toEqual([]);
    });
  }

  it('a client without the capability keeps the bounded wait and "call again"', async () => {
    const { source, client, app } = await setup('legacy', false);
    await app.control.updateSettings({ waitSeconds: 1 });
    const result = await client.callTool({ name: 'count_send', arguments: { to: 'x@y.z' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Call this tool again/);
    expect(source.count('count_send')).toBe(0);
  });
});
