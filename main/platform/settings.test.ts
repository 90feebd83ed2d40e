import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/harness.js';
import { defaultDataDir, resolveDataDir } from './paths.js';
import { DEFAULT_CALLS_IN_FLIGHT, DEFAULT_PORT, SettingsStore } from './settings.js';

describe('SettingsStore', () => {
  it('starts from defaults and writes validated JSON atomically', () => {
    const dir = tempDir();
    const store = new SettingsStore(join(dir, 'settings.json'));
    expect(store.get()).toMatchObject({
      port: DEFAULT_PORT,
      paused: false,
      approvals: { waitSeconds: 45, expireMinutes: 10 },
    });
    store.update((s) => void (s.paused = true));
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).paused).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(new SettingsStore(join(dir, 'settings.json')).get().paused).toBe(true);
  });

  it('refuses an invalid change and keeps the previous state on disk and in memory', () => {
    const dir = tempDir();
    const store = new SettingsStore(join(dir, 'settings.json'));
    store.update((s) => void (s.port = 5000));
    const before = readFileSync(join(dir, 'settings.json'), 'utf8');
    expect(() => store.update((s) => void ((s as { port: unknown }).port = 'eighty'))).toThrow(
      /Invalid settings: .*port/s,
    );
    expect(() =>
      store.update((s) => void ((s as Record<string, unknown>).secretToken = 'x')),
    ).toThrow(/Invalid settings/);
    expect(store.get().port).toBe(5000);
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe(before);
  });

  it('a settings file with bad values is a clear error naming the file', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ port: -1 }));
    expect(() => new SettingsStore(join(dir, 'settings.json'))).toThrow(
      /settings\.json is invalid: .*port/s,
    );
  });

  it('limits.callsInFlightPerAgent: a bad value is refused naming it, state intact; a file without it loads with the default', () => {
    const dir = tempDir();
    const file = join(dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ limits: { resultChars: 5000 } }));
    const store = new SettingsStore(file);
    expect(store.get().limits).toMatchObject({
      resultChars: 5000,
      callsInFlightPerAgent: DEFAULT_CALLS_IN_FLIGHT,
    });
    store.update((s) => void (s.limits.callsInFlightPerAgent = 7));
    const before = readFileSync(file, 'utf8');
    for (const bad of [0, -1, 1.5, '10', null, Number.NaN])
      expect(() =>
        store.update(
          (s) => void ((s.limits as Record<string, unknown>).callsInFlightPerAgent = bad),
        ),
      ).toThrow(/Invalid settings: .*callsInFlightPerAgent/s);
    expect(store.get().limits.callsInFlightPerAgent).toBe(7);
    expect(readFileSync(file, 'utf8')).toBe(before);
    writeFileSync(file, JSON.stringify({ limits: { callsInFlightPerAgent: 0 } }));
    expect(() => new SettingsStore(file)).toThrow(
      /settings\.json is invalid: .*callsInFlightPerAgent/s,
    );
  });

  it('a settings file that is not JSON is moved aside, not overwritten', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'settings.json'), '{ broken');
    const store = new SettingsStore(join(dir, 'settings.json'));
    expect(store.get().port).toBe(DEFAULT_PORT);
    const aside = readdirSync(dir).find((f) => f.startsWith('settings.json.broken-'));
    expect(aside && readFileSync(join(dir, aside), 'utf8')).toBe('{ broken');
  });
});

describe('data directory', () => {
  it('flag beats environment beats the per-OS default', () => {
    const a = tempDir();
    const b = tempDir();
    expect(resolveDataDir(a, { AIRLOCK_DATA_DIR: b })).toBe(a);
    expect(resolveDataDir(undefined, { AIRLOCK_DATA_DIR: b })).toBe(b);
  });

  it('per-OS defaults', () => {
    expect(defaultDataDir('darwin', {}, '/Users/al')).toBe(
      '/Users/al/Library/Application Support/Airlock',
    );
    expect(
      defaultDataDir('win32', { APPDATA: 'C:\\Users\\al\\AppData\\Roaming' }, 'C:\\Users\\al'),
    ).toMatch(/Roaming.Airlock$/);
    expect(defaultDataDir('linux', {}, '/home/al')).toBe('/home/al/.config/airlock');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/x' }, '/home/al')).toBe('/x/airlock');
  });
});
