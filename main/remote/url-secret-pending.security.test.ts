import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { httpControlClient } from '../../common/http-control-client.js';
import { ControlError } from '../../common/contract/index.js';
import { readControlToken } from '../app/app.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { startRemoteApp } from '../../test-support/remote-app.js';

/**
 * Red-team wave, redteam2 F1: a new URL for a server is a loosening, held for the window with a
 * summary naming the new URL. The summary quoted that URL unmasked, so the credential in its
 * query (`?api_key=…`) — masked in settings, `remote list` and every ControlApi result — went
 * into the CONFIRM_IN_WINDOW error, `listPolicyChanges`, the `/api/events` stream and the Tools
 * page. The summary now shows the URL masked as everywhere else, and says when only the
 * credential changed.
 */
const cleanup = cleanupAfterEach();

const OLD = `qk_${randomBytes(18).toString('hex')}`;
const NEW = `qk_${randomBytes(18).toString('hex')}`;

async function held(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ControlError);
  expect((err as ControlError).code).toBe('CONFIRM_IN_WINDOW');
  return (err as ControlError).message;
}

describe('a credential in a server URL’s query, in what a control caller is told', () => {
  it('never shows the credential in its query: not in the error, the pending change or its event', async () => {
    const up = new FakeUpstream({ tools: [] });
    await up.start();
    cleanup.push(() => up.stop());
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    const api = httpControlClient(t.started.url, (await readControlToken(t.vault))!);
    const events: unknown[] = [];
    t.app.events.subscribe((e) => events.push(e));
    await api.addRemote({ name: 'svc', url: `${up.url}?api_key=${OLD}&team=blue` });

    // Another host and a new key: both shown, the key masked.
    const moved = await held(
      api.updateRemote('svc', { url: `${up.url.replace('/mcp', '/v2')}?api_key=${NEW}&team=blue` }),
    );
    expect(moved).toContain('/v2?api_key=***&team=blue');
    // The same URL with only the key changed: still held, and said so without the key.
    const rekeyed = await held(
      api.updateRemote('svc', { url: `${up.url}?api_key=${NEW}&team=blue` }),
    );
    expect(rekeyed).toContain(
      'give server "svc" new values for the credentials in its URL (api_key)',
    );

    const pending = await api.listPolicyChanges();
    expect(pending.length).toBe(2);
    expect(events.filter((e) => (e as { type: string }).type === 'policy.change').length).toBe(2);
    for (const [label, text] of [
      ['the CONFIRM_IN_WINDOW message', moved + rekeyed],
      ['listPolicyChanges', JSON.stringify(pending)],
      ['the control events', JSON.stringify(events)],
    ] as const)
      for (const s of [OLD, NEW])
        expect(text.includes(s), `${label} holds a URL credential`).toBe(false);
  });

  it('nor the old URL of a settings file whose credential is still in the clear', async () => {
    const up = new FakeUpstream({ tools: [] });
    await up.start();
    cleanup.push(() => up.stop());
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    const api = httpControlClient(t.started.url, (await readControlToken(t.vault))!);
    await api.addRemote({ name: 'svc', url: `${up.url}?api_key=${OLD}` });
    // A file from before issue 29 whose key the vault could not take yet (moveUrlSecrets).
    t.app.settings.update((s) => {
      s.remotes.find((r) => r.name === 'svc')!.url = `${up.url}?api_key=${OLD}`;
    });
    const moved = await held(
      api.updateRemote('svc', { url: `${up.url.replace('/mcp', '/v2')}?api_key=${NEW}` }),
    );
    expect(moved).toContain('?api_key=***)');
    const rekeyed = await held(api.updateRemote('svc', { url: `${up.url}?api_key=${NEW}` }));
    expect(rekeyed).toContain('new values for the credentials in its URL (api_key)');
    for (const s of [OLD, NEW]) expect((moved + rekeyed).includes(s)).toBe(false);
  });

  it('a URL refused as malformed is not echoed with its credential', async () => {
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    const api = httpControlClient(t.started.url, (await readControlToken(t.vault))!);
    // Port out of range: the WHATWG parser refuses it, and the error quoted the text as given.
    const err = await api
      .addRemote({ name: 'bad', url: `https://mcp.example.com:99999/mcp?api_key=${NEW}` })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(ControlError);
    expect((err as ControlError).code).toBe('INVALID');
    expect((err as ControlError).message).toContain('?api_key=***" is not a URL');
    expect((err as ControlError).message.includes(NEW)).toBe(false);
  });
});
