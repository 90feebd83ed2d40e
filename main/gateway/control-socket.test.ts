import { connect } from 'node:net';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { ControlError, type ControlApi } from '../../common/contract/index.js';
import { Logger } from '../platform/log.js';
import { OpenCodes } from './control-open-codes.js';
import { ControlSocket, controlSocketPath } from './control-socket.js';
import { socketControlClient, SocketUnreachableError } from '../cli/socket-client.js';
import { tempDir } from '../../test-support/temp-dir.js';

const logger = new Logger({ dir: tempDir('airlock-sock-log-'), stderr: false });
const api = {
  listAgents: async () => [{ name: 'a' }],
  revokeAgent: async (name: string) => {
    throw new ControlError('NOT_FOUND', `No agent named "${name}".`);
  },
} as unknown as ControlApi;

/** Sends raw lines and collects one answer per line. */
async function raw(path: string, lines: string[]): Promise<Record<string, unknown>[]> {
  const socket = connect(path);
  const rl = createInterface({ input: socket });
  const answers: Record<string, unknown>[] = [];
  const done = new Promise<void>((resolve) =>
    rl.on('line', (l) => {
      answers.push(JSON.parse(l) as Record<string, unknown>);
      if (answers.length === lines.length) resolve();
    }),
  );
  socket.write(lines.map((l) => l + '\n').join(''));
  await done;
  socket.end();
  return answers;
}

describe.skipIf(process.platform === 'win32')('the local control socket (issue 19, item 3)', () => {
  const open: ControlSocket[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.stop();
  });

  it('owner-only: socket 0600 in a 0700 directory, removed on stop', async () => {
    const dataDir = tempDir('airlock-sock-');
    const s = new ControlSocket({ api, logger, controlToken: 't', openCodes: new OpenCodes() });
    const path = await s.start(controlSocketPath(dataDir));
    expect(path).toBe(join(dataDir, 'run', 'control.sock'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    await s.stop();
    await expect(socketControlClient(path).listAgents()).rejects.toBeInstanceOf(
      SocketUnreachableError,
    );
  });

  it('the same dispatch as /api/rpc: results, ControlErrors, unknown methods, bad JSON', async () => {
    const dataDir = tempDir('airlock-sock-');
    const s = new ControlSocket({ api, logger, controlToken: 't', openCodes: new OpenCodes() });
    open.push(s);
    const path = await s.start(controlSocketPath(dataDir));
    const client = socketControlClient(path);
    expect(await client.listAgents()).toEqual([{ name: 'a' }]);
    await expect(client.revokeAgent('zed')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No agent named "zed".',
    });
    const answers = await raw(path, [
      'not json',
      '{"method":"deleteEverything"}',
      '{"method":"listAgents"}',
    ]);
    expect(answers).toEqual([
      expect.objectContaining({ status: 400, error: 'INVALID' }),
      expect.objectContaining({ status: 404, error: 'NOT_FOUND' }),
      { status: 200, result: [{ name: 'a' }] },
    ]);
  });

  it('a data directory too long for a socket path gets a private directory under tmp', () => {
    const long = join(tmpdir(), 'x'.repeat(120));
    const p = controlSocketPath(long, 'linux');
    expect(Buffer.byteLength(p)).toBeLessThan(104);
    expect(p.startsWith(tmpdir())).toBe(true);
  });
});
