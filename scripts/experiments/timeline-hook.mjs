// Issue 34 experiment: a preload (`NODE_OPTIONS=--import …/timeline-hook.mjs`) that stamps every
// Node process of a bench run on the machine's one monotonic clock (process.hrtime, CLOCK_MONOTONIC:
// the same clock in every process), so a sequential call's path can be read across processes —
// the agent (undici's fetch in the bench process), the gateway, the upstream — where each
// process's own tools (bench-segments.mjs) see only their own part. From node:http's and undici's
// own diagnostics channels (Node's http docs, "Diagnostics Channel"; undici's docs,
// "Diagnostics Channel"); no product code carries a probe. Events are kept in memory and written
// to AIRLOCK_TIMELINE_DIR/ev-PID.jsonl once a second (an unref'd timer) and at exit.
// Read by timeline-report.mjs. Measurement only.
import dc from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.AIRLOCK_TIMELINE_DIR;
if (dir) {
  const file = join(dir, `ev-${process.pid}.jsonl`);
  appendFileSync(file, JSON.stringify({ pid: process.pid, argv: process.argv }) + '\n');
  const us = () => Number(process.hrtime.bigint()) / 1000;
  let buf = [];
  const flush = () => {
    if (buf.length === 0) return;
    const out = buf;
    buf = [];
    appendFileSync(file, out.map((e) => JSON.stringify(e)).join('\n') + '\n');
  };
  setInterval(flush, 1000).unref();
  process.on('exit', flush);
  const ports = new Map();
  const portOf = (origin) => {
    let p = ports.get(origin);
    if (p === undefined) {
      try {
        p = Number(new URL(String(origin)).port);
      } catch {
        p = 0;
      }
      ports.set(origin, p);
    }
    return p;
  };
  // The gateway or upstream side: a POST's headers parsed, its answer's end() called.
  dc.subscribe('http.server.request.start', ({ request, response, server }) => {
    if (request.method !== 'POST') return;
    const port = server.address().port;
    buf.push(['ss', us(), port]);
    const end = response.end;
    response.end = function (...args) {
      buf.push(['se', us(), port]);
      return end.apply(this, args);
    };
  });
  // node:http client (a gateway's upstream leg): written out, its head in, its body's end.
  dc.subscribe('http.client.request.start', ({ request }) => {
    if (request.method !== 'POST') return;
    const u = process.cpuUsage();
    buf.push(['cs', us(), request.socket?.remotePort ?? 0, u.user + u.system]);
  });
  dc.subscribe('http.client.response.finish', ({ request, response }) => {
    if (request.method !== 'POST') return;
    const port = request.socket?.remotePort ?? 0;
    const u = process.cpuUsage();
    buf.push(['ch', us(), port, u.user + u.system]);
    response.once('end', () => buf.push(['ce', us(), port]));
  });
  // undici (the agents' fetch): headers written to the socket, the answer's head, its end.
  dc.subscribe('undici:client:sendHeaders', ({ request }) => {
    if (request.method !== 'POST') return;
    buf.push(['us', us(), portOf(request.origin)]);
  });
  dc.subscribe('undici:request:headers', ({ request }) => {
    if (request.method !== 'POST') return;
    buf.push(['uh', us(), portOf(request.origin)]);
  });
  dc.subscribe('undici:request:trailers', ({ request }) => {
    if (request.method !== 'POST') return;
    buf.push(['ut', us(), portOf(request.origin)]);
  });
}
