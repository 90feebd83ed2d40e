import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { writeStandInElectronDist, writeStandInIconsToolset } from './electron-dist.js';

/**
 * Runs the real electron-builder (from node_modules) on a copy of the repository, against a
 * stand-in Electron (test-support/electron-dist.ts), and reads what it packaged (issue 32).
 *
 * The copy ("stage") holds what a release checkout holds: every file git knows or would add, the
 * built dist/, and node_modules as hard links (no bytes copied; nothing in the build writes to
 * them). Building there keeps the real node_modules as it is: the beforePack hook adds other
 * platforms' keyring packages to the stage's node_modules only. It also makes `npm ls` (which
 * electron-builder runs to find the production dependencies) see a plain node_modules folder even
 * where the repository's is a symbolic link, as in a git worktree.
 */

export type TargetPlatform = 'linux' | 'darwin' | 'win32';
export interface Target {
  /** electron-builder's name for the platform (the key in electron-builder.yml). */
  builder: 'linux' | 'mac' | 'win';
  platform: TargetPlatform;
  arch: string;
}

export interface BuiltTarget extends Target {
  /** The resources folder holding app.asar and app.asar.unpacked. */
  resources: string;
  /** The Electron binary that holds the fuse wire. */
  fuseBinary: string;
}

const requireHere = createRequire(import.meta.url);
/** A module as electron-builder itself loads it (its own dependencies, not ours). */
export const requireFromBuilder = createRequire(
  requireHere.resolve('app-builder-lib/package.json'),
);

/** Repository folders that never belong in a stage (caches, earlier outputs). */
const NOT_STAGED = /^(node_modules|release|test-results|playwright-report|\.airlock-test)(\/|$)/;

/** Hard-links a tree (directories recreated, symbolic links copied as links). */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (name === '.vitest-cache' || name === '.cache') continue;
    const src = join(from, name);
    const dest = join(to, name);
    const stat = lstatSync(src);
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(src), dest);
    else if (stat.isDirectory()) linkTree(src, dest);
    else {
      try {
        linkSync(src, dest);
      } catch (err) {
        // Another file system (a tmpfs /tmp): copy instead.
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        cpSync(src, dest);
      }
    }
  }
}

/** Copies the repository at `root` (with its built dist/) into a new folder; returns it. */
export function stageRepository(root: string, into: string): string {
  if (
    !existsSync(join(root, 'dist', 'main', 'index.js')) ||
    !existsSync(join(root, 'dist', 'renderer'))
  )
    throw new Error('dist/ is not built: run `npm run build` before the packaging test');
  const stage = join(into, 'project');
  for (const f of repositoryFiles(root)) cpSync(join(root, f), join(stage, f));
  cpSync(join(root, 'dist'), join(stage, 'dist'), { recursive: true });
  linkTree(realpathSync(join(root, 'node_modules')), join(stage, 'node_modules'));
  return stage;
}

/**
 * The files a checkout holds: what git tracks or would add; without git (a source tarball),
 * everything but .git, dist/ and the folders above.
 */
function repositoryFiles(root: string): string[] {
  let files: string[];
  try {
    files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    }).split('\0');
  } catch {
    files = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => relative(root, join(d.parentPath, d.name)).replace(/\\/g, '/'))
      .filter((f) => !/^(\.git|dist)(\/|$)/.test(f));
  }
  return files.filter((f) => f && !NOT_STAGED.test(f) && existsSync(join(root, f)));
}

/** electron-builder's output folder for a `dir` target (app-builder-lib's `computeAppOutDir`). */
function appOutDir(out: string, t: Target): string {
  const suffix = t.arch === 'x64' ? '' : `-${t.arch}`;
  if (t.builder === 'mac') return join(out, `mac${suffix}`);
  return join(out, `${t.builder}${suffix}-unpacked`);
}

function built(out: string, t: Target, productName: string, executable: string): BuiltTarget {
  const dir = appOutDir(out, t);
  if (t.builder === 'mac') {
    const contents = join(dir, `${productName}.app`, 'Contents');
    return {
      ...t,
      resources: join(contents, 'Resources'),
      fuseBinary: join(dir, `${productName}.app`),
    };
  }
  return {
    ...t,
    resources: join(dir, 'resources'),
    fuseBinary: join(dir, t.builder === 'win' ? `${productName}.exe` : executable),
  };
}

/**
 * Builds `dir` packages (the app folder every installer is made from) for each target with the
 * stage's own electron-builder.yml; only the Electron download (stand-in zips) and the icon
 * tool's download (stand-in) are replaced. Returns where each landed and the build log.
 */
export async function buildPackages(
  stage: string,
  work: string,
  targets: readonly Target[],
  electronVersion: string,
): Promise<{ built: BuiltTarget[]; log: string }> {
  const electronDist = await writeStandInElectronDist(
    join(work, 'electron-dist'),
    electronVersion,
    targets,
  );
  const icons = writeStandInIconsToolset(join(work, 'icons-toolset'));
  const out = join(work, 'out');
  const byBuilder = new Map<string, string[]>();
  for (const t of targets)
    byBuilder.set(t.builder, [...(byBuilder.get(t.builder) ?? []), `dir:${t.arch}`]);
  const args = [
    join(stage, 'node_modules', 'electron-builder', 'cli.js'),
    ...[...byBuilder].flatMap(([b, ts]) => [`--${b}`, ...ts]),
    `-c.electronDist=${electronDist}`,
    `-c.directories.output=${out}`,
  ];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ELECTRON_BUILDER_ICONS_TOOLSET_DIR: icons,
    // No signing identity is looked for (there is none here; the Windows hook logs and skips).
    CSC_IDENTITY_AUTO_DISCOVERY: 'false',
    // builder-util hard-links output files to their sources when it sees VITEST: the sources are
    // hard links into the real node_modules, so copies it is.
    USE_HARD_LINKS: 'false',
  };
  delete env.VITEST;
  const { stdout, stderr } = await promisify(execFile)(process.execPath, args, {
    cwd: stage,
    env,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(
      `electron-builder failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`,
    );
  });
  const pkg = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8')) as { name: string };
  return {
    built: targets.map((t) => built(out, t, 'Airlock', pkg.name)),
    log: `${stdout}\n${stderr}`,
  };
}

/** A new scratch folder for one packaging run. */
export function packagingWorkDir(): string {
  return mkdtempSync(join(tmpdir(), 'airlock-packaging-'));
}

/** The folder `app.asar.unpacked` next to a resources folder's app.asar. */
export const unpackedDir = (t: BuiltTarget) => join(t.resources, 'app.asar.unpacked');
export const asarPath = (t: BuiltTarget) => join(t.resources, 'app.asar');
