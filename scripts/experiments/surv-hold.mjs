// Throwaway preload (issue 34, docs/performance.md "What keeps a finished call's objects alive at
// a scavenge"): inside `airlock serve` only, keeps a strong reference to a few calls' node:http
// objects (every 300th inbound request and response, every 300th upstream request with an AsyncResource made in its call,
// which holds the call's async context frame; the last 12 of each). A heap snapshot (full GC) only holds live objects, so a dead old-space object that
// pins younger calls at a scavenge cannot be seen in one; holding an early call alive on purpose
// makes whatever links it to *later* calls show up as their retainer path.
import { AsyncResource } from 'node:async_hooks';
import dc from 'node:diagnostics_channel';

if (process.argv.includes('serve')) {
  const held = (globalThis.__survHeld = { inbound: [], upstream: [] });
  let n = 0;
  let m = 0;
  const keep = (list, x) => {
    list.push(x);
    if (list.length > 12) list.shift();
  };
  dc.subscribe('http.server.request.start', ({ request, response }) => {
    if (++n % 300 === 0) keep(held.inbound, { request, response });
  });
  dc.subscribe('http.client.request.start', ({ request }) => {
    if (++m % 300 === 0) keep(held.upstream, { request, scope: new AsyncResource('surv-held') });
  });
}
