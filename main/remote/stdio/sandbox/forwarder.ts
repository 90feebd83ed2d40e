/**
 * The door inside a Linux sandbox whose network is a host list (issue 35):
 * the sandbox has its own network namespace with only loopback, so programs
 * that honour `HTTP(S)_PROXY=http://127.0.0.1:PORT` reach a listener on that
 * port, which passes each connection to Airlock's proxy through the Unix
 * socket bound into the sandbox. The forwarder decides nothing: the netns has
 * no route out, so whatever runs inside — the server included, proxy
 * variables or not — reaches only that socket, and the proxy behind it lets
 * only listed hosts through (host-proxy.ts).
 *
 * A server's first connection must never find the port closed, so the port is
 * bound before the server starts. Two ways, by what the system has:
 *
 * - Perl (`/usr/bin/perl`; Debian and Ubuntu always have it: perl-base is
 *   Essential): LAUNCH_PERL binds and listens, forks itself off as the relay
 *   and execs the server — a few ms, where a Node start costs 50–100 ms of
 *   CPU that the server's own start would share. The server is then the
 *   sandbox's main process: when it ends, bubblewrap's PID 1 ends the PID
 *   namespace, and the relay with it.
 * - Otherwise FORWARDER_CODE: Node binds the port, then starts the server as
 *   its child and ends with it (one Node start before the server's). It is
 *   run as `node -e CODE -- PORT SOCKET PROGRAM ARG…` by the node Airlock
 *   itself runs on (Electron with ELECTRON_RUN_AS_NODE, which the server does
 *   not inherit), and starts without NODE_USE_ENV_PROXY (with it Node loads its
 *   proxy agent at start, ~100 ms here), which the server gets back.
 *
 * Plain CommonJS and Perl: no Airlock module is visible in the sandbox.
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
  process.env.NODE_USE_ENV_PROXY = '1';
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

/**
 * `perl -e LAUNCH_PERL -- PORT SOCKET PROGRAM ARG…`. Binds and listens on 127.0.0.1:PORT, forks
 * the relay off and execs the server (without the socket). Perl's built-ins only: loading its
 * Socket module alone costs more than the rest; the constants are Linux's (AF_INET 2, AF_UNIX 1,
 * SOCK_STREAM 1 — 2 on MIPS, where the launcher uses Node instead). The relay is a grandchild,
 * so its parent is the sandbox's PID 1, not the server; its stdin and stdout are /dev/null (the
 * server's stdio is MCP's). Per connection it forks one process per direction, each a blocking
 * copy that half-closes its peer at the end; a reset ends both.
 */
export const LAUNCH_PERL = `
my ($port, $sock, @cmd) = @ARGV;
my $fail = sub { print STDERR "airlock sandbox: proxy forwarder: $_[0]: $!\\n"; exit 70 };
socket(my $s, 2, 1, 0) or $fail->('socket');
bind($s, pack('S n C4 x8', 2, $port, 127, 0, 0, 1)) or $fail->('bind');
listen($s, 4096) or $fail->('listen');
my $up = pack('S Z*', 1, $sock);
my $pid = fork();
$fail->('fork') unless defined $pid;
if ($pid == 0) {
  my $g = fork();
  exit(defined $g ? 0 : 70) unless defined $g && $g == 0;
  open(STDIN, '<', '/dev/null');
  open(STDOUT, '>', '/dev/null');
  $0 = 'airlock-proxy-forwarder';
  $SIG{CHLD} = 'IGNORE';
  while (1) {
    accept(my $c, $s) or next;
    my $k = fork();
    if (defined $k && $k == 0) {
      close($s);
      socket(my $u, 1, 1, 0) or exit 0;
      connect($u, $up) or exit 0;
      my $d = fork();
      exit 0 unless defined $d;
      my ($from, $to) = $d ? ($c, $u) : ($u, $c);
      my $buf;
      while (my $n = sysread($from, $buf, 65536)) {
        for (my $o = 0; $o < $n; ) {
          my $w = syswrite($to, $buf, $n - $o, $o);
          exit 0 unless $w;
          $o += $w;
        }
      }
      shutdown($to, 1);
      exit 0;
    }
    close($c);
  }
}
waitpid($pid, 0);
$fail->('fork') if $? != 0;
close($s);
exec { $cmd[0] } @cmd;
print STDERR "airlock sandbox: could not start $cmd[0]: $!\\n";
exit 127;
`;
