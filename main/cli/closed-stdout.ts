/**
 * `airlock tools list | head -3`: once the reader is gone, the next write to stdout fails with
 * EPIPE, and Node — which ignores SIGPIPE — raises it as an 'error' event on process.stdout. With
 * no listener that is an uncaught exception: a stack trace and exit 1, after the command itself
 * had done its work (`agent add | head` had already made the agent). A reader that stopped
 * reading wants no more output, so the CLI stops quietly, as `git log | head` does.
 *
 * `serve` is different: stdout only carries its ready line, and a server must not stop because
 * whoever started it stopped reading that; there EPIPE is ignored.
 */
const watched = new WeakSet<NodeJS.WritableStream>();

export function quietWhenStdoutCloses(
  keepRunning: boolean,
  stdout: NodeJS.WritableStream = process.stdout,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  // Once per stream: main() also runs in-process, many times, in the tests.
  if (watched.has(stdout)) return;
  watched.add(stdout);
  stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    if (!keepRunning) exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}
