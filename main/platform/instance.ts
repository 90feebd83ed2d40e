import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { writeFileAtomic } from './atomic-file.js';

export interface ServerInfo {
  url: string;
  mcpUrl: string;
  pid: number;
  version: string;
  startedAt: string;
  /** The local control channel (issue 19): Unix socket or Windows named pipe. */
  controlSocket?: string;
}

export class AlreadyRunningError extends Error {
  override name = 'AlreadyRunningError';
  constructor(
    readonly info: ServerInfo | null,
    readonly pid: number,
  ) {
    super(
      `Airlock is already running for this data directory (pid ${pid}${info ? `, ${info.mcpUrl}` : ''}). ` +
        'Stop it first, or use another --data-dir.',
    );
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readServerInfo(path: string): ServerInfo | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ServerInfo;
  } catch {
    return null;
  }
}

/**
 * One running Airlock per data directory: an O_EXCL lock file holding our
 * pid. A lock left by a dead process is taken over.
 */
export class InstanceLock {
  private held = false;

  constructor(
    private readonly lockPath: string,
    private readonly infoPath: string,
  ) {}

  /** Returns the pid of the live holder, or null if none. */
  holder(): number | null {
    try {
      const pid = Number(readFileSync(this.lockPath, 'utf8').trim());
      return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : null;
    } catch {
      return null;
    }
  }

  acquire(): void {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(this.lockPath, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        this.held = true;
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const pid = this.holder();
        if (pid !== null && pid !== process.pid)
          throw new AlreadyRunningError(readServerInfo(this.infoPath), pid);
        rmSync(this.lockPath, { force: true }); // stale: its process is gone
      }
    }
    throw new Error(`Could not take the lock ${this.lockPath}`);
  }

  publish(info: ServerInfo): void {
    writeFileAtomic(this.infoPath, JSON.stringify(info, null, 2) + '\n');
  }

  release(): void {
    if (!this.held) return;
    rmSync(this.infoPath, { force: true });
    rmSync(this.lockPath, { force: true });
    this.held = false;
  }
}
