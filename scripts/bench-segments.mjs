// Issue 34: where a gateway's added latency sits on a call's path, read inside the gateway's
// process from node:http's own diagnostics channels (Node's http docs, "Diagnostics Channel":
// http.server.request.start, http.client.request.start), so no gateway code carries a probe.
// Every POST served while it is the only one open in the process (a sequential call) counts:
//
//   served        its headers parsed → the gateway's `res.end()` with the answer (the bytes leave
//                 inside that call), whatever the upstream (a local stdio server too)
//
// and where exactly one upstream HTTP request was made meanwhile, that span split in three:
//
//   to upstream   headers parsed → the upstream request written out (Node publishes
//                 http.client.request.start from ClientRequest#_finish, after the flush; on a
//                 socket still connecting, once queued on it)
//   upstream      → the upstream answer's last byte read ('end'); split in `toFirstData` (to its
//                 first bytes on the socket) and `firstDataToEnd` (the rest: the head's and the
//                 body's parse, and the gateway's own reading of the pieces)
//   to answer     → `res.end()`
//
// with the process's CPU (user + system, every thread) over `served` and over the two gateway
// spans together; `madeToWritten`, the upstream request made (http.client.request.created) →
// written out, a part of `to upstream`. Also: `inEnd`, the time inside the answer's `res.end()` (the socket write, which
// wakes the reader); `toFinish`, `res.end()` → 'finish'; and `gap` / `cpuGap`, from a call's answer
// to the process's next POST and the CPU meanwhile (gaps of 5 ms or more, another leg's block, left
// out). Work a gateway does after its answer is written (bookkeeping on later ticks) is
// in none of them: it lengthens a call only if still running when the next request arrives, and
// then before that call's headers are parsed.
// Measurement only: bench-relay-floor.mjs --segments, bench-stdio.mjs --segments.
import dc from 'node:diagnostics_channel';

const now = () => performance.now();
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Starts recording; `report()` gives each server port's medians (ms) over what it recorded, or
 * each key's: `keyOf(request, port)` names the group a POST belongs to (bench-era-floor.mjs
 * splits one port's calls by protocol era).
 */
export function recordSegments({ keyOf = (_request, port) => port } = {}) {
  const open = new Set();
  const done = [];
  let last;
  dc.subscribe('http.server.request.start', ({ request, response, server }) => {
    if (request.method !== 'POST') return; // a GET stream stays open and is no call
    const key = keyOf(request, server.address().port);
    const r = { port: key, t0: now(), c0: cpuMs(), ups: [], shared: false };
    // The previous call's tail: from its answer to this request, the process's CPU meanwhile.
    if (last?.tAnswer !== undefined && last.gap === undefined) {
      last.gap = r.t0 - last.tAnswer;
      last.cpuGap = r.c0 - last.cAnswer;
    }
    last = r;
    for (const o of open) o.shared = true;
    if (open.size > 0) r.shared = true;
    open.add(r);
    // The instant the answer is handed to the socket: this response's own end(), wrapped here
    // (the bench's process only) because no channel marks it.
    const end = response.end;
    response.end = function (...args) {
      r.tAnswer ??= now();
      r.cAnswer ??= cpuMs();
      const h0 = process.hrtime.bigint();
      const out = end.apply(this, args);
      r.inEnd ??= now() - r.tAnswer;
      // The same window on the machine's monotonic clock (process.hrtime, CLOCK_MONOTONIC, the
      // same in every process), for the agent's side to place its receipt in (`endWindows`).
      r.hEnd ??= [Number(h0 / 1000n), Number(process.hrtime.bigint() / 1000n)];
      return out;
    };
    response.once('finish', () => (r.tFinish = now()));
    response.once('close', () => {
      open.delete(r);
      if (!r.shared && r.tAnswer !== undefined) done.push(r);
    });
  });
  // When each upstream request was made (its ClientRequest constructed): how long its bytes then
  // wait for the socket (Node assigns a pooled socket on a later tick, after the microtasks
  // already queued), `madeToWritten`.
  const made = new WeakMap();
  dc.subscribe('http.client.request.created', ({ request }) => made.set(request, now()));
  dc.subscribe('http.client.request.start', ({ request }) => {
    const u = { t1: now(), c1: cpuMs(), t0: made.get(request) };
    for (const o of open) o.ups.push(u);
    // The answer's first bytes on the socket (before Node's HTTP parser sees them: a listener on
    // the socket, which is flowing already, so nothing about the response's reading changes),
    // so `upstream` splits into the server's part and the rest of the read, which the gateway's
    // own reader of the pieces is part of.
    request.socket?.prependOnceListener('data', () => (u.t2 = now()));
    request.once('response', (res) =>
      res.once('end', () => {
        u.t3 = now();
        u.c3 = cpuMs();
      }),
    );
  });
  return {
    /**
     * Per port: `served` and `cpuServed` over every such POST (headers parsed → `res.end()`, for
     * an upstream of any kind: a stdio one too), `n` of them; and where the call made one HTTP
     * upstream request, the spans above (`nHttp` of them).
     */
    report() {
      const byPort = {};
      for (const r of done.splice(0)) {
        const port = (byPort[r.port] ??= { served: [], http: [] });
        if (r.hEnd) (port.endWindows ??= []).push(r.hEnd);
        port.served.push({
          served: r.tAnswer - r.t0,
          cpuServed: r.cAnswer - r.c0,
          inEnd: r.inEnd,
          toFinish: (r.tFinish ?? r.tAnswer) - r.tAnswer,
        });
        // Only a call followed by another in this process before `report()`, and a short gap
        // (the same leg's next call, not another leg's block run meanwhile).
        if (r.gap !== undefined && r.gap < 5)
          (port.tail ??= []).push({ gap: r.gap, cpuGap: r.cpuGap });
        const u = r.ups[0];
        if (r.ups.length !== 1 || u.t3 === undefined || u.t3 > r.tAnswer) continue;
        port.http.push({
          toUpstream: u.t1 - r.t0,
          upstream: u.t3 - u.t1,
          toAnswer: r.tAnswer - u.t3,
          madeToWritten: u.t0 === undefined ? NaN : u.t1 - u.t0,
          toFirstData: (u.t2 ?? u.t3) - u.t1,
          firstDataToEnd: u.t3 - (u.t2 ?? u.t3),
          inProcess: u.t1 - r.t0 + (r.tAnswer - u.t3),
          cpuOnPath: u.c1 - r.c0 + (r.cAnswer - u.c3),
        });
      }
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
      const medians = (rows) =>
        rows.length === 0
          ? {}
          : Object.fromEntries(Object.keys(rows[0]).map((k) => [k, median(rows.map((x) => x[k]))]));
      return Object.fromEntries(
        Object.entries(byPort).map(([port, { served, http, tail = [], endWindows = [] }]) => [
          port,
          {
            endWindows,
            n: served.length,
            nHttp: http.length,
            nTail: tail.length,
            ...medians(served),
            ...medians(http),
            ...medians(tail),
          },
        ]),
      );
    },
  };
}
