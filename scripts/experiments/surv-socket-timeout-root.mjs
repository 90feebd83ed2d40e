// Throwaway preload (issue 34, docs/performance.md "What keeps a finished call's objects alive at
// a scavenge"): inside `airlock serve` only, every net.Socket#setTimeout runs in the async context
// of the preload (empty), so the Timeout it makes does not capture the calling call's
// AsyncLocalStorage frame (node:timers keeps `kAsyncContextFrame`, or the store on the resource
// without --experimental-async-context-frame). A heap snapshot under load showed sockets' Timeouts
// (`Socket[kTimeout]`, kept even after a clearTimeout: stream_base_commons.js setStreamTimeout) as
// the retainers of finished calls' relay scopes.
import { AsyncResource } from 'node:async_hooks';
import net from 'node:net';

if (process.env.SURV_SOCKET_ROOT === '1' && process.argv.includes('serve')) {
  const root = new AsyncResource('surv-root');
  const setTimeout = net.Socket.prototype.setTimeout;
  net.Socket.prototype.setTimeout = function (...args) {
    return root.runInAsyncScope(setTimeout, this, ...args);
  };
}
