import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimeFacts } from './runtime-paths.js';
import { tempDir } from '../../../../test-support/temp-dir.js';

/**
 * Issue 35: a local server's runtime is bound read-only, but a per-user tool folder that only
 * has a `bin` is no install prefix: `cargo install` puts a server in ~/.cargo/bin, and binding
 * ~/.cargo whole handed every such server ~/.cargo/credentials.toml (the crates.io token).
 * A real prefix (a `lib` beside its `bin`: Node, a Python venv) is still bound whole.
 */
function home() {
  const h = join(realpathSync(tempDir('airlock-rt-')), 'home');
  mkdirSync(h, { recursive: true });
  return h;
}

function exe(path: string) {
  writeFileSync(path, '\x7fELF');
  chmodSync(path, 0o755);
}

const ctx = (h: string, pathVar: string) => ({
  cwd: h,
  pathVar,
  home: h,
  guard: [],
  system: ['/usr', '/bin'],
  platform: 'linux' as const,
});

describe('runtime paths: a tool folder is not a prefix', () => {
  it('a server in ~/.cargo/bin gets that bin, not ~/.cargo with its credentials', () => {
    const h = home();
    const cargo = join(h, '.cargo');
    mkdirSync(join(cargo, 'bin'), { recursive: true });
    mkdirSync(join(cargo, 'registry'), { recursive: true });
    writeFileSync(join(cargo, 'credentials.toml'), '[registry]\ntoken = "cio_secret"\n');
    exe(join(cargo, 'bin', 'rust-mcp-server'));
    const facts = runtimeFacts('rust-mcp-server', [], ctx(h, join(cargo, 'bin')));
    expect(facts.program).toBe(join(cargo, 'bin', 'rust-mcp-server'));
    expect(facts.paths).toEqual([join(cargo, 'bin')]);
  });

  it('a prefix with a lib beside its bin (a venv, a Node install) is still bound whole', () => {
    const h = home();
    const venv = join(h, 'venv');
    mkdirSync(join(venv, 'bin'), { recursive: true });
    mkdirSync(join(venv, 'lib', 'python3.12', 'site-packages'), { recursive: true });
    exe(join(venv, 'bin', 'python3'));
    symlinkSync('python3', join(venv, 'bin', 'python'));
    expect(runtimeFacts('python', [], ctx(h, join(venv, 'bin'))).paths).toEqual([
      join(venv, 'bin'),
      venv,
    ]);
  });
});
