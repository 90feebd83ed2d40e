import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bwrapArgs } from './bwrap.js';
import { findBwrap } from './host-facts.js';
import { HostProxy } from './host-proxy.js';
import { parseHostRule } from './host-rules.js';
import { tempDir } from '../../../../test-support/temp-dir.js';

/**
 * Issue 35, with the real bubblewrap: in a host-list sandbox the server's very first act is a
 * connection to the forwarder's port — it must find the port open (bound before the server
 * starts, forwarder.ts), reach a listed host through Airlock's proxy, find no way around it,
 * and keep its stdin, stdout and NODE_USE_ENV_PROXY to itself. Both ways the port is bound:
 * Perl (binding, then the server and the relay side by side) and, without Perl, Node first.
 */
const bwrap = process.platform === 'linux' ? findBwrap() : undefined;
const bash = existsSync('/bin/bash') ? '/bin/bash' : undefined;
const PERL = '/usr/bin/perl';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** Connects first thing, tunnels to the listed listener, then tries it directly. */
const SERVER = [
  'exec 3<>/dev/tcp/127.0.0.1/3128 || exit 9',
  'read -r line; echo "stdin=$line"',
  'printf "CONNECT 127.0.0.1:%s HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n" "$1" >&3',
  'cat <&3',
  'echo "env=$NODE_USE_ENV_PROXY"',
  '(exec 4<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && echo direct=open || echo direct=refused',
].join('\n');

/** 200,000 lines (1.3 MB) each way at once through the relay, then what came back, hashed. */
const BULK = [
  'exec 3<>/dev/tcp/127.0.0.1/3128 || exit 9',
  'printf "CONNECT 127.0.0.1:%s HTTP/1.1\\r\\n\\r\\n" "$1" >&3',
  'head -c 39 <&3',
  'seq 200000 >&3 &',
  'head -c "$(seq 200000 | wc -c)" <&3 | md5sum',
  'seq 200000 | md5sum',
].join('\n');

/** A listener outside the sandbox: greets and hangs up, or echoes. */
async function outside(echo = false): Promise<number> {
  const server = createServer((c) => {
    c.on('error', () => {});
    if (echo) c.pipe(c);
    else c.end('hello from outside\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise((r) => server.close(r)));
  return (server.address() as { port: number }).port;
}

async function proxy(port: number): Promise<string> {
  const dir = tempDir('airlock-fwd-');
  const p = new HostProxy({ rules: [parseHostRule(`127.0.0.1:${port}`)] });
  const at = await p.listen({ path: join(dir, 'proxy.sock') });
  cleanup.push(() => p.close());
  return String(at);
}

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bwrap!, args, {
      env: { PATH: '/usr/bin:/bin', NODE_USE_ENV_PROXY: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end('from airlock\n');
  });
}

describe.skipIf(!bwrap || !bash)('the host-list forwarder in bubblewrap', () => {
  const node = realpathSync(process.execPath);
  const plan = (perl: string | undefined, script: string, port: number, socket: string) => {
    const root = realpathSync(tempDir('airlock-fwd-home-'));
    mkdirSync(join(root, 'own'));
    return bwrapArgs({
      bwrap: bwrap!,
      disableUserns: false,
      program: bash!,
      args: ['-c', script, 'server', String(port)],
      cwd: root,
      home: root,
      privateHome: join(root, 'own'),
      runtime: perl ? [] : [dirname(dirname(node))],
      read: [],
      write: [],
      mask: [],
      network: 'hosts',
      proxy: perl ? { socket, perl } : { socket, node },
    });
  };
  for (const perl of [...(existsSync(PERL) ? [PERL] : []), undefined]) {
    const way = perl ? 'Perl binds and relays' : 'Node first';
    it(`the server's first connection goes through the proxy, and only there (${way})`, async () => {
      const port = await outside();
      const r = await run(plan(perl, SERVER, port, await proxy(port)));
      expect(r.err).toBe('');
      expect(r.out).toBe(
        'stdin=from airlock\n' +
          'HTTP/1.1 200 Connection Established\r\n\r\nhello from outside\n' +
          'env=1\n' +
          'direct=refused\n',
      );
      expect(r.code).toBe(0);
    });

    it(`a tunnel carries 1.3 MB each way at once, complete and in order (${way})`, async () => {
      const port = await outside(true);
      const r = await run(plan(perl, BULK, port, await proxy(port)));
      expect(r.err).toBe('');
      const head = 'HTTP/1.1 200 Connection Established\r\n\r\n';
      expect(r.out.startsWith(head)).toBe(true);
      const [got, sent] = r.out.slice(head.length).split('\n');
      expect(got).toMatch(/^[0-9a-f]{32} {2}-$/);
      expect(got).toBe(sent);
      expect(r.code).toBe(0);
    });
  }
});
