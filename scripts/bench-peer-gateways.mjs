// The gateways of the peer bench (issue 34), each started as its own process the way its users
// run it, in front of server-everything over streamable HTTP or over stdio, and the two kinds of
// agent client. Used by bench-peers.mjs; not a bench by itself.
//
// Airlock itself (the real CLI, and the old bench's in-process App) is in bench-peer-airlock.mjs.
//
// Every gateway resolves to { name, kind, pid, url, token?, sse?, tool, note?, stop() }; `pid` is
// the root of the process tree whose CPU and memory the bench reads from /proc.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { perRequestFetch } from './bench-lib.mjs';

export const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'package.json'));
const node = process.execPath;
export const everythingEntry =
  require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
/** server-everything over stdio, as each gateway is told to launch it. */
export const stdioServer = { command: node, args: [everythingEntry, 'stdio'] };

/** Every process this bench started, killed (with its group) if the bench exits early. */
export const started = new Set();
process.once('exit', () => {
  for (const p of started) kill(p, 'SIGKILL');
});
function kill(proc, signal) {
  try {
    process.kill(-proc.pid, signal); // its own process group: the gateway and what it spawned
  } catch {
    /* already gone */
  }
}

/** A process in its own group; stderr (and stdout unless `lines`) into a log file in `dir`. */
export function launch(cmd, args, { env = {}, dir, lines = false } = {}) {
  const log = join(dir, 'log.txt');
  const fd = openSync(log, 'a');
  const proc = spawn(cmd, args, {
    env: { ...process.env, ...env },
    cwd: dir,
    stdio: ['ignore', lines ? 'pipe' : fd, fd],
    detached: true,
  });
  started.add(proc);
  const exited = new Promise((r) => proc.once('exit', r));
  const tail = () => {
    try {
      return readFileSync(log, 'utf8').trim().split('\n').slice(-3).join(' | ');
    } catch {
      return '';
    }
  };
  const firstLine = lines
    ? Promise.race([
        new Promise((r) => createInterface({ input: proc.stdout }).once('line', r)),
        exited.then((code) => {
          throw new Error(`${cmd} exited ${code}: ${tail()}`);
        }),
      ])
    : undefined;
  return {
    proc,
    firstLine,
    tail,
    exited,
    stop: async () => {
      kill(proc, 'SIGTERM');
      const t = setTimeout(() => kill(proc, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
      kill(proc, 'SIGKILL'); // anything left in its group
      started.delete(proc);
    },
  };
}

export async function freePort() {
  const s = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

export const tmp = (name) => mkdtempSync(join(tmpdir(), `airlock-bench-peers-${name}-`));

/** Waits (on the gateway's own start, not a measurement) until `connect` succeeds. */
export async function until(what, proc, connect) {
  let last;
  for (let i = 0; i < 600; i++) {
    if (proc.proc.exitCode !== null) throw new Error(`${what} exited: ${proc.tail()}`);
    try {
      return await connect();
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${what} did not answer: ${last?.message} ${proc.tail()}`);
}

// ------------------------------------------------------------------ clients of both eras

/**
 * An agent: era 2025 is the stock @modelcontextprotocol/sdk 1.x Client (what most peers speak),
 * era 2026 the v2 @modelcontextprotocol/client taking 2026-07-28. Resolves { callTool, close,
 * listTools } or { na: 'why' } when the gateway does not offer that era.
 */
export async function agent(era, gw) {
  const headers = gw.token ? { Authorization: `Bearer ${gw.token}` } : {};
  if (era === '2025') {
    const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
    const c = new Client({ name: 'bench', version: '1' });
    if (gw.sse) {
      const { SSEClientTransport } = await import(
        require.resolve('@modelcontextprotocol/sdk/client/sse.js')
      );
      await c.connect(new SSEClientTransport(new URL(gw.url), { requestInit: { headers } }));
    } else {
      const { StreamableHTTPClientTransport } = await import(
        require.resolve('@modelcontextprotocol/sdk/client/streamableHttp.js')
      );
      await c.connect(
        new StreamableHTTPClientTransport(new URL(gw.url), { requestInit: { headers } }),
      );
    }
    return c;
  }
  if (gw.sse) return { na: 'serves only the HTTP+SSE transport (2024-11-05)' };
  const { Client, StreamableHTTPClientTransport } = await import(
    require.resolve('@modelcontextprotocol/client')
  );
  // 'v2-2025': the v2 client on a 2025-11-25 session, the agent of bench-passthrough.mjs.
  const mode = era === 'v2-2025' ? 'legacy' : 'auto';
  const c = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode } });
  try {
    await c.connect(
      new StreamableHTTPClientTransport(new URL(gw.url), {
        requestInit: { headers },
        fetch: perRequestFetch(),
      }),
    );
  } catch (err) {
    return { na: `2026-07-28 client could not connect: ${err.message.slice(0, 80)}` };
  }
  if (mode === 'auto' && c.getProtocolEra() !== 'modern') {
    await c.close();
    return { na: 'does not offer 2026-07-28 (the client fell back to a 2025 session)' };
  }
  return c;
}

// ------------------------------------------------------------------ the gateways

/**
 * A floor as its own process: the raw byte proxy or the JSON relay of bench-passthrough.mjs
 * (`script` that file, `role` its --proxy-child / --relay-child), the guarded relay
 * (bench-guarded-relay.mjs, no role), or the stdio relay (bench-stdio-relay.mjs: no role, no
 * upstream URL — it launches its own server over stdio).
 */
export async function floorChild(name, upstreamUrl, script, role) {
  const argv = [join(root, 'scripts', script), ...(role ? [role] : [])];
  if (upstreamUrl) argv.push(upstreamUrl);
  const p = spawn(node, argv, {
    stdio: ['pipe', 'pipe', 'inherit'],
    detached: true,
  });
  started.add(p);
  // A child that dies before it listens (a bad upstream, a module that will not load) must make
  // this start fail, kept as a row with its reason, not leave the bench waiting for a line.
  const info = JSON.parse(
    await new Promise((resolve, reject) => {
      createInterface({ input: p.stdout }).once('line', resolve);
      p.once('exit', (code, signal) => {
        started.delete(p);
        reject(new Error(`${name} exited (${signal ?? code}) before it listened`));
      });
    }),
  );
  return {
    name,
    kind: 'http',
    pid: p.pid,
    url: info.url,
    token: info.token,
    tool: info.tool ?? 'echo',
    stop: async () => {
      p.stdin.end(); // the child ends with its stdin
      // One killed by a signal mid-run has a null exitCode and no 'exit' to come: waiting on
      // 'exit' alone hung the bench's last step.
      const gone = p.exitCode !== null || p.signalCode !== null;
      await new Promise((r) => (gone ? r() : p.once('exit', r)));
      started.delete(p);
    },
  };
}

/** mcp-hub (HTTP+SSE at /mcp, namespaced tools), with its own config, state and log folders. */
export async function mcpHub(bin, kind, upstreamUrl) {
  const dir = tmp('hub');
  const config = join(dir, 'mcp-servers.json');
  const server = kind === 'http' ? { url: upstreamUrl } : { ...stdioServer };
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: server } }));
  const port = await freePort();
  const env = { XDG_STATE_HOME: dir, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir, HOME: dir };
  const p = launch(node, [bin, '--port', String(port), '--config', config], { env, dir });
  const gw = {
    name: 'mcp-hub',
    kind,
    pid: p.proc.pid,
    url: `http://127.0.0.1:${port}/mcp`,
    sse: true,
  };
  gw.tool = await until('mcp-hub', p, async () => {
    const c = await agent('2025', gw);
    try {
      const { tools } = await c.listTools();
      const t = tools.find((x) => x.name === 'echo' || /(^|[_.\-:])echo$/.test(x.name));
      if (!t) throw new Error('no echo tool yet');
      return t.name;
    } finally {
      await c.close();
    }
  });
  return { ...gw, stop: () => p.stop().then(() => rmSync(dir, { recursive: true, force: true })) };
}

/** supergateway 4, stdio → streamable HTTP, --stateful (sessions, as 2025 clients need). */
export async function supergateway(bin) {
  const dir = tmp('sg');
  const port = await freePort();
  const cmd = [stdioServer.command, ...stdioServer.args].join(' ');
  const args = ['--stdio', cmd, '--outputTransport', 'streamableHttp', '--stateful'];
  const p = launch(node, [bin, ...args, '--port', String(port)], { dir });
  const gw = { name: 'supergateway', kind: 'stdio', pid: p.proc.pid, tool: 'echo' };
  gw.url = `http://127.0.0.1:${port}/mcp`;
  await until('supergateway', p, async () => (await agent('2025', gw)).close());
  return { ...gw, stop: () => p.stop().then(() => rmSync(dir, { recursive: true, force: true })) };
}

/** mcp-proxy 6 (punkpeye), stdio → streamable HTTP at /mcp and SSE at /sse; defaults. */
export async function mcpProxy(bin) {
  const dir = tmp('mp');
  const port = await freePort();
  const args = ['--port', String(port), '--', stdioServer.command, ...stdioServer.args];
  const p = launch(node, [bin, ...args], { dir });
  const gw = { name: 'mcp-proxy', kind: 'stdio', pid: p.proc.pid, tool: 'echo' };
  gw.url = `http://127.0.0.1:${port}/mcp`;
  await until('mcp-proxy', p, async () => (await agent('2025', gw)).close());
  return { ...gw, stop: () => p.stop().then(() => rmSync(dir, { recursive: true, force: true })) };
}

/** server-everything over stdio, spawned by the agent itself: the stdio baseline (2025 only). */
export async function directStdio() {
  const { Client } = await import(require.resolve('@modelcontextprotocol/sdk/client/index.js'));
  const { StdioClientTransport } = await import(
    require.resolve('@modelcontextprotocol/sdk/client/stdio.js')
  );
  const c = new Client({ name: 'bench', version: '1' });
  const t = new StdioClientTransport({ ...stdioServer, stderr: 'ignore' });
  await c.connect(t);
  return { client: c, pid: t.pid };
}
