/**
 * `airlock tools list | head -3`: once the reader is gone, the next write to stdout fails with
 * EPIPE, and Node — which ignores SIGPIPE — raises it as an 'error' event on process.stdout. With
 * no listener that is an uncaught exception: a stack trace and exit 1, after the command itself
 * had done its work (`agent add | head` had already made the agent). The same goes for stderr
 * (`airlock agent list 2>&1 | head -1`, whose warning goes there).
 *
 * A reader that stopped reading wants no more output, so what is left of it is dropped and the
 * command finishes as it would have: its cleanup runs (the in-process core's stop) and its exit
 * code is its own (`status | head -1` with no server is still 1, a listing is 0). Exiting at the
 * first EPIPE instead cut that cleanup short and turned every result into 0. git and coreutils
 * die of SIGPIPE (141), which `set -o pipefail` scripts then read as a failure of the command.
 * `serve` is the same: a server must not stop because whoever started it stopped reading.
 *
 * Only these two streams: sockets to upstreams and agents keep their own error handling.
 */
const watched = new WeakSet<NodeJS.WritableStream>();

export function quietWhenReaderCloses(
  streams: NodeJS.WritableStream[] = [process.stdout, process.stderr],
): void {
  for (const stream of streams) {
    // Once per stream: main() also runs in-process, many times, in the tests.
    if (watched.has(stream)) continue;
    watched.add(stream);
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  }
}
