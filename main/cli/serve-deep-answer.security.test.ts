import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { ApprovalView, CoreEvent } from '../../common/contract/index.js';
import { httpControlClient, subscribeEvents } from '../../common/http-control-client.js';
import { addAgent, newProfile, startServer } from '../../e2e/helpers/airlock-server.js';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { deepHttp } from '../../test-support/deep-upstream.js';

/**
 * The outside tester's F1, on the built `airlock serve` process: a remote server answers an
 * approved call with a `_meta` nested 10,000 deep. The process used to exit within seconds
 * (RangeError out of the approval store's JSON.stringify in an unawaited promise), leaving
 * server.json and run/control.sock behind. Now the call fails at once saying it ran, the
 * request is `failed`, and the same process serves the next call. Every wait on the process is
 * raced against its exit (`whileRunning`): a crash fails the test at once, saying so.
 */
const cleanup = cleanupAfterEach();

describe('airlock serve and a server whose answer nests 10,000 deep', () => {
  it('an approved call fails saying it ran; the process keeps serving', async () => {
    const upstream = createServer(deepHttp({ sse: false }));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    cleanup.push(async () => {
      upstream.closeAllConnections();
      await new Promise((r) => upstream.close(r));
    });
    const profile = newProfile('airlock-deep-');
    cleanup.push(async () => rmSync(profile.root, { recursive: true, force: true }));
    const token = await addAgent(profile, 'agent');
    const server = await startServer(profile);
    cleanup.push(() => server.stop());
    const control = httpControlClient(server.url, server.controlToken);
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
    expect(await control.addRemote({ name: 'evil', url })).toMatchObject({ state: 'ready' });
    await control.setToolPolicy('evil__meta', { approval: 'ask' });

    const agent = new Client({ name: 'agent', version: '1' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    cleanup.push(() => agent.close());

    // The call is made once the event stream is open, so its approval.requested is not missed.
    let answer: ReturnType<Client['callTool']> | undefined;
    const requested = new Promise<ApprovalView>((resolve) => {
      const stop = subscribeEvents(
        server.url,
        server.controlToken,
        (e: CoreEvent) => {
          if (e.type !== 'approval.requested') return;
          stop();
          resolve(e.approval);
        },
        (connected) => {
          if (connected && !answer) answer = agent.callTool({ name: 'evil__meta', arguments: {} });
        },
      );
    });
    const alive = server.whileRunning;
    const approval = await alive(requested);
    await alive(control.decide(approval.id, { kind: 'allow_once' }));
    const r = await alive(answer!);
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0]?.text).toMatch(
      /nested deeper than 128 levels; Airlock did not parse it\. The call itself ran on the server/,
    );
    expect((await alive(control.getApproval(approval.id))).state).toBe('failed');

    // The same process, still serving: another call goes through, server.json is still its own.
    const ok = await alive(agent.callTool({ name: 'evil__good', arguments: {} }));
    expect(ok.isError).toBeFalsy();
    expect((await alive(fetch(`${server.url}/healthz`))).status).toBe(200);
    expect(existsSync(join(profile.dataDir, 'server.json'))).toBe(true);
    expect(server.stderr()).not.toMatch(/RangeError|unhandled rejection/);
  });
});
