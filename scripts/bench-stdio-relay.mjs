// The JSON relay of bench-relay.mjs in front of a local server over stdio: the stdio legs' floor
// in the peer bench (issue 34). The same agent-facing half (bearer token, one session, the agent's
// JSON-RPC body parsed, one write back), and as its upstream half the least a gateway must do to
// reach a server it launched: newline-delimited JSON-RPC on the child's stdin and stdout (MCP
// 2025-11-25, Transports, "stdio"), each answer matched to its call by id. No schema checks, no
// policy, no sandbox, no SDK: a yardstick, not a product.
//
// What it is for: an HTTP agent's call to a stdio server crosses three processes (agent, gateway,
// server) on this machine's two cores whatever the gateway does, and this row shows what that
// costs — above all the p99, which the HTTP legs read as added over direct calls but the stdio legs
// read absolute, with no direct path to subtract.
//
// Run as a child of bench-peers.mjs (no arguments): launches server-everything over stdio as the
// peers are told to (bench-peer-gateways.mjs's stdioServer), prints {"url", "token"} once
// listening, answers "cpu" on stdin with its own process.cpuUsage(), and ends with its stdin.
import { spawn } from 'node:child_process';
import { answerLines } from './bench-lib.mjs';
import { stdioServer } from './bench-peer-gateways.mjs';
import { relayServer } from './bench-relay.mjs';

const VERSION = '2025-11-25';

/**
 * A session with a local server over stdio: `call(name, args)` resolves with its JSON-RPC answer.
 * Once the server is gone every call fails at once with why (not left to the agent's timeout).
 */
async function stdioUpstream(command, args) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map();
  let nextId = 1;
  let buffered = '';
  let dead;
  const gone = (why) => {
    dead ??= why;
    for (const [, p] of pending) p.reject(new Error(dead));
    pending.clear();
  };
  child.once('exit', (code, signal) => gone(`the local server exited (${signal ?? code})`));
  child.once('error', (err) => gone(err.message));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (!line.trim()) continue;
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        // As the SDK's stdio client does (ReadBuffer): a line that is not JSON is reported and
        // skipped, not the end of the session.
        process.stderr.write(
          `stdio relay: not a JSON-RPC line from the server: ${line.slice(0, 80)}\n`,
        );
        continue;
      }
      // The server's own requests and notifications (log messages, list changes) are not answers
      // to a call: a yardstick drops them.
      const p = msg.id !== undefined && msg.method === undefined && pending.get(msg.id);
      if (!p) continue;
      pending.delete(msg.id);
      p.resolve(msg);
    }
  });
  const write = (message) => child.stdin.write(JSON.stringify(message) + '\n');
  const request = (method, params) =>
    dead
      ? Promise.reject(new Error(dead))
      : new Promise((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve, reject });
          write({ jsonrpc: '2.0', id, method, params });
        });
  const init = await request('initialize', {
    protocolVersion: VERSION,
    capabilities: {},
    clientInfo: { name: 'bare', version: '1' },
  });
  if (init.error) throw new Error(`initialize: ${init.error.message}`);
  write({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    child,
    request,
    call: (name, args) => request('tools/call', { name, arguments: args }),
  };
}

const upstream = await stdioUpstream(stdioServer.command, stdioServer.args);
const { url, token } = await relayServer(upstream, 'stdio relay');
process.stdout.write(JSON.stringify({ url, token }) + '\n');
// Its server goes with it: stdin's end (the bench's stop) or SIGTERM ends both, the relay once
// its server has exited (not leaving it to be reparented).
const end = () => {
  const { child } = upstream;
  if (child.exitCode !== null || child.signalCode !== null) process.exit(0);
  child.once('exit', () => process.exit(0));
  child.kill();
};
process.once('SIGTERM', end);
process.stdin.once('end', end);
answerLines();
