import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxPermissions, SandboxView } from '../../../../common/contract/index.js';
import type { Logger } from '../../../platform/log.js';
import { spawnFailure, StdioError } from '../errors.js';
import type { Launch } from '../process-group.js';
import { bwrapArgs, probeBwrap, systemMounts, type BwrapProbe } from './bwrap.js';
import type { SandboxHost } from './host-facts.js';
import { checkGrant, realish, within, type ProtectedPath } from './protected-paths.js';
import { runtimeFacts, SYSTEM_DIRS } from './runtime-paths.js';
import { seatbeltProfile } from './seatbelt.js';
import { unixSocketFilter } from './seccomp.js';
import { proxyEnv, ServerProxies } from './server-proxies.js';

/** What to spawn instead: the sandbox's launcher around the server; `extraStdio` goes to fds 3…. */
export interface PreparedLaunch {
  launch: Launch;
  extraStdio?: Buffer[];
}

/** Facts of a server's last sandboxed start, for its view. */
interface LastRun {
  runtime: string[];
  home: string;
}

const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/**
 * Starts local servers inside the OS sandbox (issue 35): Linux bubblewrap
 * (bwrap.ts), macOS sandbox-exec (seatbelt.ts); Windows has none. Keeps one
 * host-list proxy per server across its restarts, each server's own folder,
 * and what each was refused.
 */
export class SandboxLauncher {
  private probed: BwrapProbe | undefined;
  private probing: Promise<BwrapProbe> | undefined;
  private readonly runs = new Map<string, LastRun>();
  private readonly proxies: ServerProxies;

  constructor(
    readonly host: SandboxHost,
    logger: Logger,
  ) {
    this.proxies = new ServerProxies(host.platform, logger);
  }

  /** Protected paths, the proxies' socket folder included once it exists. */
  guard(): ProtectedPath[] {
    return [
      ...this.host.guard,
      ...(this.proxies.socketDir
        ? [{ path: this.proxies.socketDir, what: "Airlock's proxy sockets" }]
        : []),
    ];
  }

  /** What enforces permissions here; Linux: bubblewrap unless its probe failed. */
  enforcement(): SandboxView['enforcement'] {
    if (this.host.platform === 'linux')
      return this.host.bwrap && this.probed?.ok !== false ? 'bubblewrap' : 'none';
    if (this.host.platform === 'darwin') return existsSync(SANDBOX_EXEC) ? 'sandbox-exec' : 'none';
    return 'none';
  }

  /** What its last start made readable so it could run. */
  runtimeOf(name: string): string[] {
    return [...(this.runs.get(name)?.runtime ?? [])];
  }

  /** The sandbox part of a server's view. */
  view(name: string, perm: SandboxPermissions, notGranted: string[]): SandboxView {
    const enforcement = this.enforcement();
    const status =
      enforcement !== 'none' ? 'sandboxed' : perm.allowUnsandboxed ? 'unsandboxed' : 'blocked';
    const run = this.runs.get(name);
    return {
      ...perm,
      read: [...perm.read],
      write: [...perm.write],
      hosts: [...perm.hosts],
      enforcement,
      status,
      note: this.note(status, name),
      runtime: run ? [...run.runtime] : [],
      ...(enforcement !== 'none' ? { home: this.privateHome(name) } : {}),
      notGranted,
      refusedHosts: this.proxies.refusedOf(name),
    };
  }

  private note(status: SandboxView['status'], name: string): string {
    if (status === 'sandboxed')
      return this.host.platform === 'darwin'
        ? 'enforced by macOS sandbox-exec: it reads the system, its own folder and what is listed here; never the keychain.'
        : 'enforced by bubblewrap: it sees only the system, its own folder and what is listed here.';
    const missing = this.missing();
    if (status === 'unsandboxed')
      return `Runs without a sandbox, as you allowed: it can read and write whatever you can and reach any host (${missing}). Only the environment allow-list applies.`;
    return `${missing}: not started. Allow it to run without a sandbox (airlock remote update ${name} --allow-unsandboxed) only if you trust it.`;
  }

  /** Why there is no sandbox here, as the status text starts. */
  private missing(): string {
    if (this.host.platform === 'win32')
      return 'unsandboxed — Windows: Airlock has no sandbox for local servers (no file or network isolation)';
    if (this.host.platform === 'darwin') return 'unsandboxed — sandbox-exec is missing';
    if (this.host.platform !== 'linux') return `unsandboxed — no sandbox on ${this.host.platform}`;
    if (!this.host.bwrap || this.probed?.why === 'not installed')
      return 'unsandboxed — install bubblewrap (sudo apt install bubblewrap), then restart Airlock';
    return `unsandboxed — bubblewrap cannot make a sandbox here (${this.probed?.why ?? 'unknown'})`;
  }

  /** The server's own folder on the host. */
  privateHome(name: string): string {
    return join(this.host.homesRoot, /^[A-Za-z0-9_-]{1,64}$/.test(name) ? name : 'server');
  }

  /**
   * The launch to spawn for one start of `name`. Throws StdioError (its status text) when it
   * must not start: no sandbox here and running without one not allowed, a grant that became
   * protected or vanished, a program that is not there.
   */
  async prepare(name: string, launch: Launch, perm: SandboxPermissions): Promise<PreparedLaunch> {
    if (this.host.platform === 'linux' && this.host.bwrap && !this.probed)
      this.probed = await (this.probing ??= probeBwrap(this.host.bwrap));
    if (this.enforcement() === 'none') {
      if (perm.allowUnsandboxed) return { launch };
      throw new StdioError(this.note('blocked', name));
    }
    const guard = this.guard().map((g) => ({ ...g, path: realish(g.path) }));
    const grants = (paths: string[]) =>
      paths.map((p) => {
        if (!existsSync(p))
          throw new StdioError(`not started: ${p}, which it may use, does not exist`);
        const c = checkGrant(p, guard, this.host.home, this.host.platform);
        if (c.refused) throw new StdioError(`not started: cannot grant ${c.refused}`);
        return c.real;
      });
    const read = grants(perm.read);
    const write = grants(perm.write);
    // A grant inside a folder it may write could since have been swapped for a link by the
    // server itself: it is bound only where it still really is inside that folder.
    for (const p of [...perm.read, ...perm.write])
      for (const w of perm.write)
        if (within(p, w, this.host.platform) && !within(realish(p), realish(w), this.host.platform))
          throw new StdioError(
            `not started: ${p}, inside ${w} which it may write, now leads out of it`,
          );
    const cwd = launch.cwd ?? this.host.home;
    const system = SYSTEM_DIRS[this.host.platform === 'darwin' ? 'darwin' : 'linux'];
    const ctx = {
      cwd,
      pathVar: launch.env.PATH ?? '',
      home: this.host.home,
      guard,
      system,
      platform: this.host.platform,
    };
    const facts = runtimeFacts(launch.command, launch.args, ctx);
    if (!facts.program)
      throw spawnFailure(launch.command, Object.assign(new Error('ENOENT'), { code: 'ENOENT' }));
    const runtime = [...facts.paths];
    const viaNode = perm.network === 'hosts' && this.host.platform === 'linux' && !this.host.perl;
    if (viaNode)
      for (const p of runtimeFacts(this.host.node, [], ctx).paths)
        if (!runtime.includes(p)) runtime.push(p);
    const privateHome = this.privateHome(name);
    mkdirSync(privateHome, { recursive: true, mode: 0o700 });
    this.runs.set(name, { runtime, home: privateHome });
    const proxyAt = perm.network === 'hosts' ? await this.proxies.at(name, perm.hosts) : undefined;
    const env = { ...launch.env };
    if (proxyAt !== undefined) Object.assign(env, proxyEnv(proxyAt));
    const bound = [...system, ...runtime, ...read, ...write];
    const mask = guard
      .filter((g) => existsSync(g.path) && bound.some((b) => within(g.path, b, this.host.platform)))
      .map((g) => ({ path: g.path, dir: statSync(g.path).isDirectory() }));
    if (this.host.platform === 'darwin')
      return this.mac(launch, facts.program, env, {
        privateHome,
        runtime,
        read,
        write,
        perm,
        guard,
        proxyAt,
      });
    let seccomp: Buffer | undefined;
    if (perm.network === 'any') {
      seccomp = unixSocketFilter();
      if (!seccomp)
        throw new StdioError(
          `not started: network "any" cannot be isolated from the session bus on ${process.arch}; choose a host list`,
        );
    }
    // Inside, ~ is the server's own folder mounted at the home path; /tmp is private.
    if (env.HOME !== undefined) env.HOME = this.host.home;
    if (env.TMPDIR !== undefined) env.TMPDIR = '/tmp';
    const args = bwrapArgs(
      {
        bwrap: this.host.bwrap!,
        disableUserns: this.probed?.disableUserns ?? false,
        program: facts.program,
        args: launch.args,
        cwd,
        home: this.host.home,
        privateHome,
        runtime,
        read,
        write,
        mask,
        network: perm.network,
        ...(typeof proxyAt === 'string'
          ? {
              proxy: this.host.perl
                ? { socket: proxyAt, perl: this.host.perl }
                : { socket: proxyAt, node: this.host.node },
            }
          : {}),
        ...(seccomp ? { seccompFd: 3 } : {}),
      },
      systemMounts(),
    );
    if (viaNode && process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
    return {
      launch: { command: this.host.bwrap!, args, cwd: '/', env },
      ...(seccomp ? { extraStdio: [seccomp] } : {}),
    };
  }

  private mac(
    launch: Launch,
    program: string,
    env: Record<string, string>,
    o: {
      privateHome: string;
      runtime: string[];
      read: string[];
      write: string[];
      perm: SandboxPermissions;
      guard: ProtectedPath[];
      proxyAt: string | number | undefined;
    },
  ): PreparedLaunch {
    const tmp = join(o.privateHome, 'tmp');
    mkdirSync(tmp, { recursive: true, mode: 0o700 });
    const profile = seatbeltProfile({
      privateHome: realish(o.privateHome),
      runtime: o.runtime,
      read: o.read,
      write: o.write,
      protected: o.guard.map((g) => g.path),
      network: o.perm.network,
      ...(typeof o.proxyAt === 'number' ? { proxyPort: o.proxyAt } : {}),
    });
    // macOS cannot mount the server's own folder over the user's home: HOME points into it instead.
    return {
      launch: {
        command: SANDBOX_EXEC,
        args: ['-p', profile, program, ...launch.args],
        ...(launch.cwd ? { cwd: launch.cwd } : {}),
        env: { ...env, HOME: o.privateHome, TMPDIR: tmp },
      },
    };
  }

  /** A server removed or its network changed: its proxy closes; removed, its own folder goes too. */
  async forget(name: string, o: { removeHome?: boolean } = {}): Promise<void> {
    await this.proxies.close(name);
    this.runs.delete(name);
    if (o.removeHome) rmSync(this.privateHome(name), { recursive: true, force: true });
  }

  async closeAll(): Promise<void> {
    this.runs.clear();
    await this.proxies.closeAll();
  }
}
