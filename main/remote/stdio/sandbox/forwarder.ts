/**
 * Runs first inside a Linux sandbox whose network is a host list (issue 35):
 * the sandbox has its own network namespace with only loopback, so programs
 * that honour `HTTP(S)_PROXY=http://127.0.0.1:PORT` reach this listener,
 * which passes each connection to Airlock's proxy through the Unix socket
 * bound into the sandbox; then it starts the server on the same stdio and
 * ends with it. It is run as `node -e CODE -- PORT SOCKET PROGRAM ARG…` by
 * the node Airlock itself runs on (Electron with ELECTRON_RUN_AS_NODE, which
 * the server does not inherit).
 *
 * Plain CommonJS for `node -e`; no Airlock module is visible in the sandbox.
 */
export const FORWARDER_PORT = 3128;

export const FORWARDER_CODE = `'use strict';
const net = require('node:net');
const { spawn } = require('node:child_process');
const [port, socketPath, program, ...args] = process.argv.slice(1);
const server = net.createServer((c) => {
  const up = net.connect(socketPath);
  c.pipe(up);
  up.pipe(c);
  c.on('error', () => up.destroy());
  up.on('error', () => c.destroy());
});
server.on('error', (e) => {
  process.stderr.write('airlock sandbox: proxy forwarder: ' + e.message + '\\n');
  process.exit(70);
});
server.listen(Number(port), '127.0.0.1', () => {
  delete process.env.ELECTRON_RUN_AS_NODE;
  const child = spawn(program, args, { stdio: 'inherit' });
  child.on('error', (e) => {
    process.stderr.write('airlock sandbox: could not start ' + program + ': ' + e.message + '\\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code === null ? 1 : code);
  });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
});
`;
