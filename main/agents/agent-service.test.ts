import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../platform/log.js';
import type { SettingsStore } from '../platform/settings.js';
import type { Vault } from '../platform/vault/vault.js';
import { AgentService } from './agent-service.js';

/** An AgentService over one agent whose token is in a stand-in vault. */
async function service(token: string) {
  const agents = [{ name: 'alpha', createdAt: '2026-01-01T00:00:00.000Z' }];
  const settings = { get: () => ({ agents }) } as unknown as SettingsStore;
  const vault = { get: async () => token } as unknown as Vault;
  const logger = { registerSecret: () => {}, warn: () => {} } as unknown as Logger;
  const s = new AgentService(settings, vault, logger);
  await s.load();
  return s;
}

describe('AgentService.lastSeen', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is null until the agent authenticates, then the ISO time of its last request', async () => {
    const s = await service('tok');
    expect(s.list()[0]!.lastSeen).toBeNull();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-12-02T11:22:33.456Z'));
    expect(s.authenticate('tok')).toBe('alpha');
    expect(s.list()[0]!.lastSeen).toBe('2026-12-02T11:22:33.456Z');
    vi.setSystemTime(Date.parse('2026-12-02T11:22:34.000Z'));
    s.authenticate('tok');
    expect(s.list()[0]!.lastSeen).toBe('2026-12-02T11:22:34.000Z');
  });

  it('a wrong token is not seen', async () => {
    const s = await service('tok');
    expect(s.authenticate('other')).toBeNull();
    expect(s.list()[0]!.lastSeen).toBeNull();
  });
});

describe('AgentService.credentialOf', () => {
  it('is the SHA-256 hex of the token, as createHash gives it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (token) => {
        const expected = createHash('sha256').update(token).digest('hex');
        expect(AgentService.credentialOf(token)).toBe(expected);
      }),
    );
  });
});
