import { accessSync, closeSync, constants, openSync, readSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { checkGrant, realish, within, type ProtectedPath } from './protected-paths.js';

/**
 * What a sandboxed program needs to read just to run (issue 35): the program
 * itself, found the way the OS would find it, its install (a Node or Python
 * prefix, a package's node_modules), the interpreter its `#!` line names, and
 * the PATH folder each was found in (so `#!/usr/bin/env node` finds the same
 * node inside). All read-only; never the home folder, one of its ancestors,
 * or anything holding a protected path — then the narrower folder, or the
 * file alone.
 */
export interface RuntimeFacts {
  /** The program as the sandbox runs it (absolute), or undefined if not found. */
  program?: string;
  /** Read-only paths, deduplicated, outside the system folders. */
  paths: string[];
}

/** Folders every sandbox sees read-only anyway (Linux: bound from the host; macOS: allowed). */
export const SYSTEM_DIRS: Record<'linux' | 'darwin', readonly string[]> = {
  linux: ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'],
  darwin: ['/usr', '/bin', '/sbin', '/System', '/Library', '/private/etc', '/opt/homebrew', '/etc'],
};

/** Interpreters whose first plain argument is the program file (`node server.js`). */
const INTERPRETERS = /^(node|nodejs|bun|deno|python[0-9.]*|ruby|perl|php)(\.exe)?$/;

export interface RuntimeContext {
  cwd: string;
  /** PATH of the launch's environment. */
  pathVar: string;
  home: string;
  guard: readonly ProtectedPath[];
  system: readonly string[];
  platform: NodeJS.Platform;
}

/** Finds `command` the way execvp does: a name with a slash is a path (relative to cwd), else PATH. */
export function findProgram(command: string, cwd: string, pathVar: string): string | undefined {
  if (command.includes('/')) {
    const p = isAbsolute(command) ? command : resolve(cwd, command);
    return isExecutableFile(p) ? p : undefined;
  }
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    const p = join(isAbsolute(dir) ? dir : resolve(cwd, dir), command);
    if (isExecutableFile(p)) return p;
  }
  return undefined;
}

export function runtimeFacts(
  command: string,
  args: readonly string[],
  c: RuntimeContext,
): RuntimeFacts {
  const out = new Set<string>();
  const program = findProgram(command, c.cwd, c.pathVar);
  if (!program) return { paths: [] };
  const add = (p: string | undefined) => {
    if (p && !c.system.some((s) => within(p, s, c.platform))) out.add(p);
  };
  const addProgram = (found: string) => {
    const real = realish(found);
    add(narrowest([dirname(found)], found, c));
    add(narrowest(installRoots(real), real, c));
    return real;
  };
  const real = addProgram(program);
  const interpreter = shebang(real);
  if (interpreter) {
    const found = interpreter.includes('/')
      ? interpreter
      : findProgram(interpreter, c.cwd, c.pathVar);
    if (found) addProgram(found);
  }
  const name = basename(interpreter ?? real);
  if (INTERPRETERS.test(name) || INTERPRETERS.test(basename(command))) {
    const script = args.find((a) => !a.startsWith('-'));
    const i = script === undefined ? -1 : args.indexOf(script);
    // `node -e CODE`, `python -m mod`: the argument after a flag that takes one is not a file.
    const flagBefore = i > 0 && /^-(e|p|c|m|r|-eval|-print|-require|-import)$/.test(args[i - 1]!);
    const file = script && !flagBefore ? resolve(c.cwd, script) : undefined;
    if (file && isFile(file)) {
      const realFile = realish(file);
      const root = narrowest(installRoots(realFile), realFile, c);
      add(root);
      // A project whose node_modules is a link elsewhere (a workspace, a shared install).
      const deps = root && join(root, 'node_modules');
      if (deps && realish(deps) !== deps && isDir(deps)) add(narrowest([realish(deps)], deps, c));
    }
  }
  return { program, paths: [...out] };
}

/**
 * Candidate folders holding what a file needs, widest first: the folder that holds its
 * node_modules tree, a project root (package.json, pyproject.toml), an install prefix
 * (`…/bin/x` → `…` when `…/lib` exists; `node_modules/.bin/x` → `node_modules`), its own folder.
 */
function installRoots(file: string): string[] {
  const roots: string[] = [];
  const nm = file.indexOf(`${sep}node_modules${sep}`);
  if (nm >= 0) roots.push(file.slice(0, nm + `${sep}node_modules`.length));
  for (let d = dirname(file); dirname(d) !== d; d = dirname(d)) {
    if (['package.json', 'pyproject.toml'].some((f) => isFile(join(d, f)))) {
      roots.push(d);
      break;
    }
  }
  const dir = dirname(file);
  if (basename(dir) === 'bin' || basename(dir) === '.bin') {
    // A prefix's programs read its lib (lib/node_modules, lib/pythonX.Y); a per-user tool folder
    // with only a bin (~/.cargo, ~/go) is no prefix and keeps other things — credentials.toml.
    const prefix = dirname(dir);
    if (isDir(join(prefix, 'lib')) || basename(dir) === '.bin') roots.push(prefix);
  }
  roots.push(dir);
  return roots;
}

/** The first candidate that may be bound read-only; else the file itself. */
function narrowest(candidates: string[], file: string, c: RuntimeContext): string | undefined {
  for (const d of candidates) if (!checkGrant(d, c.guard, c.home, c.platform).refused) return d;
  return checkGrant(file, c.guard, c.home, c.platform).refused ? undefined : file;
}

/** The interpreter a `#!` line names: `/usr/bin/env node` → `node`; `/usr/bin/python3` → that path. */
export function shebang(file: string): string | undefined {
  let head: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(256);
      head = buf.subarray(0, readSync(fd, buf, 0, 256, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (!head.startsWith('#!')) return undefined;
  const words = head.slice(2).split('\n')[0]!.trim().split(/\s+/);
  if (basename(words[0] ?? '') === 'env') return words.slice(1).find((w) => !w.startsWith('-'));
  return words[0] || undefined;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function isExecutableFile(p: string): boolean {
  if (!isFile(p)) return false;
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
