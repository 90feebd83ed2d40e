// Child process for serve-forced-exit.test.ts: runs bin/airlock.js with the given arguments; on
// SIGUSR2 it delivers SIGINT to `airlock serve`'s handlers twice in a row, by process.emit, so the
// second one comes while the first one's stop is under way (two real signals sent that close
// together may be merged by the kernel into one).
process.on('SIGUSR2', () => {
  process.emit('SIGINT', 'SIGINT');
  process.emit('SIGINT', 'SIGINT');
});
await import(new URL('../../bin/airlock.js', import.meta.url).href);
