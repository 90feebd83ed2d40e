import { createServer, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { agentFor, IDLE_SOCKET_MS, target } from './upstream-agents.js';

/**
 * Issue 34: the upstream agents keep one idle timer per socket instead of a new one per request
 * (upstream-agents.ts `keepSocketAlive`), and still close idle sockets as Node's agent with a
 * `timeout` did. lean-transport.test.ts checks that idle sockets really close (the server's
 * Keep-Alive hint, a socket reused several times); these check the timer itself.
 */
const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(head: OutgoingHttpHeaders, hold?: (answer: () => void) => void): Promise<URL> {
  const srv = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json', ...head });
        res.end('{}');
      };
      if (hold) hold(answer);
      else answer();
    });
  });
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return new URL(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/mcp`);
}

/** One POST through the upstream agent; the socket it went on, once its body is read. */
function post(url: URL, onSocket?: (s: Socket) => void): Promise<Socket> {
  const { agent, request } = agentFor(url);
  return new Promise((resolve, reject) => {
    const req = request({ ...target(url), method: 'POST', agent }, (res: IncomingMessage) => {
      res.resume();
      res.on('end', () => resolve(req.socket as Socket));
    });
    req.on('socket', (s) => onSocket?.(s as Socket));
    req.on('error', reject);
    req.end('{}');
  });
}

/** The socket once the agent has it back in its free list (Node frees it on a later tick). */
async function freed(url: URL, socket: Socket): Promise<void> {
  const { agent } = agentFor(url);
  const name = `${url.hostname}:${url.port}:`;
  while (!agent.freeSockets[name]?.includes(socket)) await new Promise((r) => setImmediate(r));
}

describe('upstream agents: one idle timer per socket (issue 34)', () => {
  it('sets a reused socket’s idle timeout once, not again on every request', async () => {
    const url = await serve({ 'keep-alive': 'timeout=60' });
    const first = await post(url);
    await freed(url, first);
    expect(first.timeout).toBe(IDLE_SOCKET_MS);
    // From here every request is on this socket; none may set its timer again (Node's agent with
    // a `timeout` option zeroed it at each response's end and set it anew when the socket was free).
    const calls: unknown[] = [];
    const own = first.setTimeout.bind(first);
    first.setTimeout = ((ms: number, cb?: () => void) => {
      calls.push(ms);
      return own(ms, cb);
    }) as Socket['setTimeout'];
    for (let i = 0; i < 5; i++) {
      const s = await post(url);
      expect(s).toBe(first);
      await freed(url, s);
    }
    expect(calls).toEqual([]);
    expect(first.timeout).toBe(IDLE_SOCKET_MS);
  });

  it("takes the server's Keep-Alive hint when it is sooner, a second before it", async () => {
    const url = await serve({ 'keep-alive': 'timeout=2' });
    const s = await post(url);
    await freed(url, s);
    expect(s.timeout).toBe(1000);
  });

  it('does not keep a socket the hint leaves a second or less', async () => {
    const url = await serve({ 'keep-alive': 'timeout=1' });
    const first = await post(url);
    const second = await post(url);
    expect(second).not.toBe(first);
    expect(first.destroyed).toBe(true);
  });

  it('a socket in use that goes quiet past its idle timeout is not closed under its request', async () => {
    let answer: (() => void) | undefined;
    const held = new Promise<void>((r) => (answer = r));
    let n = 0;
    const url = await serve({ 'keep-alive': 'timeout=60' }, (a) =>
      ++n === 1 ? a() : void held.then(a),
    );
    const first = await post(url);
    await freed(url, first);
    // The idle timer firing while the socket carries a request: only a free socket is closed.
    const second = post(url, (s) => {
      setImmediate(() => {
        s.emit('timeout');
        answer?.();
      });
    });
    const s = await second;
    expect(s).toBe(first);
    expect(s.destroyed).toBe(false);
  });

  it('closes a free socket when its idle timer fires', async () => {
    const url = await serve({ 'keep-alive': 'timeout=60' });
    const s = await post(url);
    await freed(url, s);
    const closed = new Promise((r) => s.once('close', r));
    s.emit('timeout');
    await closed;
    expect(s.destroyed).toBe(true);
  });
});
