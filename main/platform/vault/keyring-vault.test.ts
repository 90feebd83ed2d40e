import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyKeyringError, keychainFix, KeyringVault } from './keyring-vault.js';
import { tempDir } from '../../../test-support/temp-dir.js';

/**
 * Against the real OS keychain: gnome-keyring on a session D-Bus, started by
 * scripts/with-keyring.sh (npm test runs the suite under it).
 */
const real = process.env.AIRLOCK_KEYRING_TEST === '1';
if (!real)
  console.log(
    'keyring-vault.test: skipping real-keychain cases: run under scripts/with-keyring.sh (npm test does)',
  );

const unique = () => tempDir('airlock-vault-');

describe.skipIf(!real)('KeyringVault on a real Secret Service', () => {
  it('stores, reads, overwrites and deletes a secret', async () => {
    const vault = new KeyringVault({ dataDir: unique() });
    await vault.check();
    expect(await vault.get('k')).toBeNull();
    await vault.set('k', 'secret-1');
    expect(await vault.get('k')).toBe('secret-1');
    await vault.set('k', 'secret-2');
    expect(await vault.get('k')).toBe('secret-2');
    expect(await vault.delete('k')).toBe(true);
    expect(await vault.get('k')).toBeNull();
    expect(await vault.delete('k')).toBe(false);
  });

  it('namespaces entries by profile: two data directories never share a secret', async () => {
    const a = new KeyringVault({ dataDir: unique() });
    const b = new KeyringVault({ dataDir: unique() });
    await a.set('agent:x', 'from-a');
    expect(await b.get('agent:x')).toBeNull();
    expect(a.service).not.toBe(b.service);
    await a.delete('agent:x');
  });

  it('no Secret Service on the bus → KEYCHAIN_UNAVAILABLE, not "no secret"', async () => {
    const out = await probeInChild({
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/airlock-test-bus',
    });
    expect(out).toEqual({ get: 'KEYCHAIN_UNAVAILABLE', set: 'KEYCHAIN_UNAVAILABLE' });
  });

  describe('a locked keyring', () => {
    const children: ChildProcess[] = [];
    afterAll(() => {
      for (const c of children) c.kill();
    });

    it('reads and writes fail with VAULT_LOCKED (a locked Secret Service answers null for reads)', async () => {
      // A second, private bus with a gnome-keyring that was started but never unlocked.
      const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      children.push(bus);
      const address = await new Promise<string>((resolve) =>
        createInterface({ input: bus.stdout! }).once('line', resolve),
      );
      // First create a password-protected login keyring, then restart the daemon without unlocking it.
      const home = unique();
      const env = {
        ...process.env,
        DBUS_SESSION_BUS_ADDRESS: address,
        XDG_DATA_HOME: home,
        // Its own runtime dir: `--start` must never reach another daemon's control socket (the
        // one scripts/with-keyring.sh runs) instead of starting on this bus.
        XDG_RUNTIME_DIR: unique(),
        DISPLAY: '',
      };
      // Polls `probe` until `done`, for as long as a loaded machine may need (no fixed count of
      // tries: under a full test run a daemon can take seconds to claim its bus name).
      const until = async (done: (o: Record<string, string>) => boolean) => {
        const deadline = Date.now() + 30_000;
        let out = await probeInChild({ DBUS_SESSION_BUS_ADDRESS: address });
        while (!done(out) && Date.now() < deadline) {
          // eslint-disable-next-line airlock-tests/test-clock -- a poll interval; the deadline is the net
          await new Promise((r) => setTimeout(r, 200));
          out = await probeInChild({ DBUS_SESSION_BUS_ADDRESS: address });
        }
        return out;
      };
      const creator = spawn(
        'gnome-keyring-daemon',
        ['--unlock', '--foreground', '--components=secrets'],
        { env, stdio: ['pipe', 'ignore', 'ignore'] },
      );
      creator.stdin!.end('locked-test-pw');
      children.push(creator);
      expect((await until((o) => o.set === 'ok')).set).toBe('ok');
      creator.kill();
      await new Promise((r) => creator.once('exit', r));
      const keyring = spawn(
        'gnome-keyring-daemon',
        ['--start', '--foreground', '--components=secrets'],
        { env, stdio: 'ignore' },
      );
      children.push(keyring);
      // The daemon takes a moment to claim its bus name; until then the answer is "unavailable".
      const out = await until((o) => o.get === 'VAULT_LOCKED');
      expect(out).toEqual({ get: 'VAULT_LOCKED', set: 'VAULT_LOCKED' });
    }, 90_000);
  });
});

/**
 * The keyring library keeps one D-Bus connection per process, so a different
 * bus needs a different process. The child uses the built vault (npm test
 * builds before it runs the tests).
 */
async function probeInChild(env: Record<string, string>): Promise<Record<string, string>> {
  const built = fileURLToPath(
    new URL('../../../dist/main/platform/vault/keyring-vault.js', import.meta.url),
  );
  if (!existsSync(built)) throw new Error(`${built} is missing: run "npm run build" first`);
  const script = `
    const { KeyringVault } = await import(${JSON.stringify(pathToFileURL(built).href)});
    const vault = new KeyringVault({ dataDir: ${JSON.stringify(unique())} });
    const code = (p) => p.then(() => 'ok', (e) => e.code ?? e.message);
    console.log(JSON.stringify({ get: await code(vault.get('k')), set: await code(vault.set('k', 'v')) }));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).once('line', resolve),
  );
  return JSON.parse(line) as Record<string, string>;
}

describe('classifyKeyringError', () => {
  it('maps the backend messages onto the two named states', () => {
    expect(
      classifyKeyringError(
        new Error("Couldn't access platform storage: Secret Service: unlock prompt was dismissed"),
      ).code,
    ).toBe('VAULT_LOCKED');
    expect(
      classifyKeyringError(
        new Error(
          'Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled',
        ),
      ).code,
    ).toBe('KEYCHAIN_UNAVAILABLE');
  });

  it('KEYCHAIN_UNAVAILABLE keeps the whole backend text and says what to do (issue 19)', () => {
    const long = 'Platform failure: ' + 'x'.repeat(300) + ' END-OF-CAUSE';
    const err = classifyKeyringError(new Error(long, { cause: new Error(long) }));
    expect(err.message).toContain('END-OF-CAUSE');
    expect(err.message.split('END-OF-CAUSE')).toHaveLength(2); // a repeated cause is said once
    expect(keychainFix('linux')).toMatch(
      /gnome-keyring libsecret-1-0.*dbus-run-session.*--vault file/s,
    );
    expect(keychainFix('darwin')).toContain('--vault file');
    expect(keychainFix('win32')).toContain('--vault file');
    if (process.platform === 'linux') expect(err.message).toContain(keychainFix('linux'));
  });

  it('a daemon that dies mid-call is started again: the call is tried up to twice more', async () => {
    // The backend's text, as a CI run printed it when gnome-keyring-daemon aborted.
    const died =
      'Platform failure: DBus error: Message recipient disconnected from message bus without replying';
    const flaky = (deaths: number, failure = died) => {
      let calls = 0;
      const vault = new KeyringVault({
        dataDir: '/x',
        entryFactory: () => ({
          getPassword: async () => {
            calls++;
            if (calls <= deaths) throw new Error(failure, { cause: new Error(failure) });
            return 'v';
          },
          setPassword: async () => undefined,
          deletePassword: async () => true,
        }),
      });
      return { vault, calls: () => calls };
    };
    const twice = flaky(2);
    expect(await twice.vault.get('k')).toBe('v');
    expect(twice.calls()).toBe(3);
    const thrice = flaky(3);
    await expect(thrice.vault.get('k')).rejects.toMatchObject({ code: 'KEYCHAIN_UNAVAILABLE' });
    expect(thrice.calls()).toBe(3);
    // libdbus's timeout also carries the NoReply name; a 25 s wait is not repeated.
    const timedOut = flaky(1, 'Platform failure: DBus error: Did not receive a reply (NoReply)');
    await expect(timedOut.vault.get('k')).rejects.toMatchObject({ code: 'KEYCHAIN_UNAVAILABLE' });
    expect(timedOut.calls()).toBe(1);
  });

  it('a null read is confirmed with a write before it is believed', async () => {
    const vault = new KeyringVault({
      dataDir: '/x',
      entryFactory: (_service, account) => ({
        getPassword: async () => null,
        setPassword: async () => {
          throw new Error(`unlock prompt was dismissed (${account})`);
        },
        deletePassword: async () => false,
      }),
    });
    await expect(vault.get('k')).rejects.toMatchObject({ code: 'VAULT_LOCKED' });
  });
});
