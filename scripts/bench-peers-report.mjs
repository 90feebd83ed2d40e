// What bench-peers.mjs prints (issue 34): one table per upstream kind × agent era with each figure's
// ratio to the best peer, the CPU reading explained, and the issue's targets MET / MISSED.
import { percentile } from './bench-lib.mjs';

const PEER_NAMES = ['mcp-hub', 'supergateway', 'mcp-proxy'];
const ERA = { 2025: '2025-era agent (SDK 1.x Client)', 2026: '2026-07-28 agent (v2 client)' };
const KIND = { http: 'HTTP upstream', stdio: 'stdio upstream (launched by the gateway)' };

/**
 * The figures of one leg. HTTP latency: added over direct calls by the same library
 * (`sameClient`; `baseEra` '2025': SDK 1.x's), '—' without them; a direct leg dropped mid-run
 * keeps its samples.
 */
function figures(leg, legs, baseEra = sameClient(leg?.era)) {
  if (!leg?.c) return undefined;
  // The same library on the same transport: a leg an agent reaches over HTTP+SSE (mcp-hub) is
  // based on direct calls over HTTP+SSE (bench-peers.mjs says why).
  const base = directName(leg);
  const direct = legs.find(
    (l) => l.kind === leg.kind && l.name === base && l.era === baseEra && l.t.length,
  );
  const under = (q) =>
    leg.kind !== 'http' || isDirect(leg) ? 0 : direct ? percentile(direct.t, q) : NaN;
  return {
    p50: percentile(leg.t, 50) - under(50),
    p99: percentile(leg.t, 99) - under(99),
    callsPerS: leg.callsPerS,
    cpu8: leg.cpu8PerCall,
    cpuSeq: leg.cpuPerCall,
    rss: leg.g.rss,
  };
}
/** A yardstick of direct calls (either transport): its latency is the base, not a gateway's. */
export const isDirect = (leg) => leg.name === 'direct' || leg.name === 'direct (HTTP+SSE)';
const directName = (leg) => (leg.g?.sse ? 'direct (HTTP+SSE)' : 'direct');
/** The direct leg whose client library is the leg's: SDK 1.x for 2025 legs, the v2 client else. */
const sameClient = (era) => (era === '2025' ? '2025' : 'v2-2025');
/**
 * An added latency under this is noise: the baseline's own swing on this shared machine exceeds
 * one hop's cost (an added p99 can even come out negative), and no ratio to it means anything.
 */
const NOISE_MS = 0.1;
const usable = (v, key) =>
  v !== undefined && Number.isFinite(v) && (!key.startsWith('p') || v >= NOISE_MS);

const METRICS = [
  ['p50', 'p50', false],
  ['p99', 'p99', false],
  ['callsPerS', 'calls/s 8 cl', true],
  ['cpu8', 'CPU/call 8 cl', false],
  ['cpuSeq', 'CPU/call seq', false],
  ['rss', 'RSS MiB', false],
];

/** The best peer's figure for a metric: same kind and era, else the same kind in the other era (marked). */
export function bestPeer(legs, kind, era, key, higher) {
  const pick = (ls) => {
    let best;
    for (const l of ls) {
      const v = figures(l, legs)?.[key];
      if (!usable(v, key)) continue;
      if (!best || (higher ? v > best.v : v < best.v)) best = { v, name: l.name, era: l.era };
    }
    return best;
  };
  const peers = legs.filter((l) => l.kind === kind && PEER_NAMES.includes(l.name));
  const same = pick(peers.filter((l) => l.era === era));
  return same ?? (pick(peers) && { ...pick(peers), other: true });
}

const fmt = (v, key) =>
  v === undefined || !Number.isFinite(v)
    ? '—'
    : key === 'callsPerS' || key === 'rss'
      ? v.toFixed(0)
      : v.toFixed(2);

export function printTables(legs, sizes) {
  console.log(
    "Every gateway row is its own process tree serving one agent era — Airlock and mcp-proxy are started once per era, each with its own stdio server — so a tree's CPU, RSS and place in the order are one era's workload, as a one-era peer's are (docs/performance.md, \"The peer bench's order effect\"). Only the yardsticks direct (HTTP) and the old bench's in-process App serve more than one leg from one process.\n",
  );
  for (const kind of ['http', 'stdio'])
    for (const era of ['2025', '2026']) {
      const what =
        kind === 'http'
          ? 'added p50 / p99 over direct (same client library, same agent transport)'
          : 'p50 / p99';
      console.log(
        `${KIND[kind]}, ${ERA[era]} — ${what} ms (${sizes.seq} sequential), calls/s (${sizes.clients} clients × ${sizes.perClient}, ${sizes.rounds} rounds), CPU ms/call of the gateway's process tree, RSS of the tree (max); (×) = ÷ best peer`,
      );
      const best = Object.fromEntries(
        METRICS.map(([k, , hi]) => [k, bestPeer(legs, kind, era, k, hi)]),
      );
      console.log(
        `  ${'gateway'.padEnd(28)}${METRICS.map(([, h]) => h.padStart(17)).join('')}  procs`,
      );
      for (const leg of legs.filter((l) => l.kind === kind && l.era === era)) {
        const f = figures(leg, legs);
        if (!f) {
          console.log(`  ${leg.name.padEnd(28)}${leg.na || 'n/a'}`);
          continue;
        }
        const cells = METRICS.map(([k]) => {
          const b = best[k];
          // direct's own latency is the baseline, not a gateway's figure: shown bare, no ratio.
          const abs = isDirect(leg) && kind === 'http' && k.startsWith('p');
          const r = !abs && b && usable(f[k], k) ? ` (${(f[k] / b.v).toFixed(2)}×)` : '';
          return `${abs ? 'abs ' : ''}${fmt(f[k], k)}${r}`.padStart(17);
        });
        console.log(`  ${leg.name.padEnd(28)}${cells.join('')}  ${leg.g.procs ?? ''}`);
      }
      const other = Object.values(best).find((b) => b?.other);
      if (other)
        console.log(
          `  (no peer speaks this era here: ratios are to the best peer with a ${other.era}-era agent)`,
        );
      console.log('');
    }
}

export function printCpuWhy(legs, sizes) {
  const get = (name, era) =>
    legs.find((l) => l.kind === 'http' && l.name === name && l.era === era && l.c);
  const direct = get('direct', '2025');
  const sse = get('direct (HTTP+SSE)', '2025');
  const air = get('Airlock', '2025');
  if (!direct || !air || !get('old bench: in-process App', 'v2-2025')) return;
  const f = (x) => (x === undefined || !Number.isFinite(x) ? '   —' : x.toFixed(2).padStart(5));
  console.log(
    `Why the old bench's CPU per passthrough call was lower (HTTP upstream, same run; ms per call, seq = ${sizes.seq} sequential / 8 cl = ${sizes.clients} clients):`,
  );
  const agents = [
    ['v2-2025', "v2 client, 2025 session (the old bench's agent)"],
    ['2025', 'SDK 1.x Client (2025 session)'],
    ['2026', 'v2 client, 2026-07-28'],
  ];
  for (const [era, who] of agents) {
    const app = get('old bench: in-process App', era);
    const cli = get('Airlock', era);
    console.log(
      `  ${who.padEnd(48)} in-process App: own cpuUsage ${f(app?.selfPerCall)} seq ${f(app?.self8PerCall)} 8 cl, /proc ${f(
        app?.cpuPerCall,
      )} seq ${f(app?.cpu8PerCall)} 8 cl | airlock serve, /proc tree ${f(cli?.cpuPerCall)} seq ${f(cli?.cpu8PerCall)} 8 cl | agent's own ${f(cli?.agentPerCall)}`,
    );
  }
  console.log(
    `  the upstream's own work (server-everything, direct calls): ${f(direct.cpuPerCall)} seq ${f(direct.cpu8PerCall)} 8 cl; the agent's own CPU on direct calls ${f(direct.agentPerCall)}${sse ? `; on HTTP+SSE: server ${f(sse.cpuPerCall)} seq ${f(sse.cpu8PerCall)} 8 cl, agent ${f(sse.agentPerCall)} (of the two bases' gap, the agent's part is rightly out of mcp-hub's figure, the server's is still in it: its upstream is Streamable HTTP)` : ''}`,
  );
  // The raw byte proxy's CPU per forwarded call is this machine's yardstick at this moment: a
  // figure ÷ it compares across machines and loads, where the milliseconds do not.
  const proxy = get('raw proxy', '2025');
  if (proxy)
    console.log(
      `  ÷ the raw proxy's CPU per call in this run (${f(proxy.cpuPerCall)} seq ${f(proxy.cpu8PerCall)} 8 cl): ${legs
        .filter((l) => l.c && l.era === '2025' && !isDirect(l) && l.cpu8PerCall)
        .map((l) => `${l.name} ${l.kind} ${(l.cpu8PerCall / proxy.cpu8PerCall).toFixed(1)}×`)
        .join(', ')} (8 cl)`,
    );
  // A reading over a process's whole life also holds its start: Node, modules, the upstream's
  // connection, before the first call. Spread over a run's calls, it adds this much per call.
  const setup = ['raw proxy', 'JSON relay', 'guarded relay', 'mcp-hub', 'Airlock']
    .map((n) => get(n, '2025')?.g)
    .filter((g) => g?.setupCpuMs !== undefined)
    .map((g) => `${g.name} ${g.setupCpuMs.toFixed(0)} ms (+${(g.setupCpuMs / 2000).toFixed(2)})`);
  console.log(
    `  CPU from process start to ready, upstream connected (÷ 2,000 calls, the issue's 8 × 250): ${setup.join(', ')}`,
  );
  const whole = air.cpuPerCall + direct.cpuPerCall + air.agentPerCall;
  console.log(
    `  one sequential call through airlock serve with every process counted (gateway + upstream + SDK 1.x agent): ${f(whole)} ms\n`,
  );
}

export function printTargets(legs, gateways) {
  const results = [];
  const target = (label, value, limit, higher, shown) => {
    if (value === undefined || !Number.isFinite(value)) {
      console.log(`  ${label.padEnd(62)} ${'n/a'.padStart(16)}`);
      return;
    }
    const met = higher ? value >= limit : value <= limit;
    results.push(met);
    console.log(
      `  ${label.padEnd(62)} ${shown.padStart(16)}   target ${higher ? '≥' : '≤'} ${limit}   ${met ? 'MET' : 'MISSED'}`,
    );
  };
  const fig = (kind, name, era) =>
    figures(
      legs.find((l) => l.kind === kind && l.name === name && l.era === era),
      legs,
    );
  console.log('Targets (issue 34), this run:');
  for (const kind of ['http', 'stdio'])
    for (const era of ['2025', '2026']) {
      const a = fig(kind, 'Airlock', era);
      for (const [k, label, hi] of METRICS.filter(([k]) => k !== 'cpuSeq')) {
        const b = bestPeer(legs, kind, era, k, hi);
        const name = `${kind} ${era}: Airlock ${label} ÷ best peer${b ? ` (${b.name}${b.other ? `, ${b.era}` : ''})` : ''}`;
        if (a && !usable(a[k], k)) {
          console.log(
            `  ${name.padEnd(62)} ${'n/a'.padStart(16)}   (Airlock's within ${NOISE_MS} ms of direct's: noise; rerun)`,
          );
          continue;
        }
        if (a && !b) {
          const why = k.startsWith('p')
            ? "every peer's within 0.1 ms of its base (direct on its transport), or that base failed"
            : 'no peer';
          console.log(`  ${name.padEnd(62)} ${'n/a'.padStart(16)}   (${why})`);
          continue;
        }
        const r = a && b ? a[k] / b.v : undefined;
        target(name, r, 1, hi, r === undefined ? '' : `${r.toFixed(2)}×`);
      }
    }
  // x ÷ y of one metric, or undefined where either side is noise (an added latency ≤ NOISE_MS).
  const ratio = (x, y, key) =>
    x && y && usable(x[key], key) && usable(y[key], key) ? x[key] / y[key] : undefined;
  const shown = (r) => (r === undefined ? '' : `${r.toFixed(2)}×`);
  const a = fig('http', 'Airlock', '2025');
  const relay = fig('http', 'JSON relay', '2025');
  const pr = ratio(a, relay, 'p50');
  target('http 2025: Airlock added p50 ÷ JSON relay', pr, 1.5, false, shown(pr));
  const tr = ratio(a, relay, 'callsPerS');
  target('http 2025: Airlock calls/s ÷ JSON relay', tr, 0.8, true, shown(tr));
  for (const kind of ['http', 'stdio']) {
    const old = fig(kind, 'Airlock', '2025');
    const now = fig(kind, 'Airlock', '2026');
    const p = ratio(now, old, 'p50');
    target(
      `${kind}: Airlock 2026 ÷ 2025 agent, ${kind === 'http' ? 'added ' : ''}p50`,
      p,
      1.1,
      false,
      shown(p),
    );
    if (kind === 'http') {
      const leg = legs.find((l) => l.kind === kind && l.name === 'Airlock' && l.era === '2026');
      const p1 = ratio(figures(leg, legs, '2025'), old, 'p50');
      if (p1 !== undefined)
        console.log(
          `  (info) ${'the same, the 2026 leg over SDK 1.x direct calls'.padEnd(55)} ${shown(p1).padStart(16)}`,
        );
    }
    const c = ratio(now, old, 'cpu8');
    target(`${kind}: Airlock 2026 ÷ 2025 agent, CPU/call 8 cl`, c, 1.1, false, shown(c));
    // The same two trees with both eras' fleets paced to one offered rate (bench-peers.mjs, 3.).
    const pacedOf = (era) =>
      legs.find((l) => l.kind === kind && l.name === 'Airlock' && l.era === era && l.pacedN);
    const [p25, p26] = [pacedOf('2025'), pacedOf('2026')];
    if (p25 && p26) {
      const per = (l) => l.pacedCpu / l.pacedN;
      const got = (l) => ((l.pacedN / l.pacedT) * 1000).toFixed(0);
      console.log(
        `  (info) ${'the same at one offered rate, both eras paced'.padEnd(55)} ${shown(per(p26) / per(p25)).padStart(16)}   (${p25.pacedRate.toFixed(0)} calls/s offered; got ${got(p25)} / ${got(p26)}; CPU/call ${per(p25).toFixed(3)} / ${per(p26).toFixed(3)} ms, 2025 / 2026)`,
      );
    }
    // stdio latency is absolute, so the target's two legs differ in client library too (SDK 1.x
    // against the v2 client): the same ratios with the v2 client on both sides.
    const v2 = kind === 'stdio' ? fig(kind, 'Airlock', 'v2-2025') : undefined;
    if (v2)
      console.log(
        `  (info) ${'the same, one client library (v2: 2026-07-28 ÷ 2025 session)'.padEnd(55)} ${`p50 ${shown(ratio(now, v2, 'p50'))}, CPU/call 8 cl ${shown(ratio(now, v2, 'cpu8'))}`.padStart(16)}`,
      );
  }
  printFloor(legs, a, relay);
  printStdioFloor(legs);
  const idle = gateways
    .filter((g) => g.kind === 'http' && g.name === 'Airlock' && !g.failed)
    .map((g) => `${g.idleRss.toFixed(1)} MiB (${g.eras.join(' + ')} tree)`);
  if (idle.length)
    console.log(
      `  (info) RSS of airlock serve with its remote connected, before any call: ${idle.join(', ')} (the ≤ 80 MiB target is idle RSS after start: bench-passthrough.mjs)`,
    );
  const st = gateways.find((g) => g.kind === 'stdio' && g.name === 'Airlock' && !g.failed);
  if (st?.note) console.log(`  (stdio: Airlock ran its local server as users get it — ${st.note})`);
  console.log(
    '  (cold start ≤ bare SDK server, heap and RSS flat over 20,000 calls: bench-passthrough.mjs, the first bench of npm run bench)',
  );
  const missed = results.filter((m) => !m).length;
  console.log(`\n${results.length - missed} MET, ${missed} MISSED`);
}

/**
 * Whether "≤ 1.5× the JSON relay" is reachable with Airlock's guarantees: the guarded relay
 * (bench-guarded-relay.mjs, the relay plus the least per-call work they need) ÷ the relay, and
 * Airlock ÷ the guarded relay. Information, not targets.
 */
function printFloor(legs, airlock, relay) {
  const guarded = figures(
    legs.find((l) => l.kind === 'http' && l.name === 'guarded relay' && l.era === '2025'),
    legs,
  );
  const r = (x, y, key) =>
    x && y && usable(x[key], key) && usable(y[key], key)
      ? `${(x[key] / y[key]).toFixed(2)}×`
      : 'n/a';
  for (const [label, x, y] of [
    ['http 2025: guarded relay ÷ JSON relay', guarded, relay],
    ['http 2025: Airlock ÷ guarded relay', airlock, guarded],
  ])
    console.log(
      `  (info) ${label.padEnd(46)} added p50 ${r(x, y, 'p50')}, calls/s 8 cl ${r(x, y, 'callsPerS')}, CPU/call 8 cl ${r(x, y, 'cpu8')}, seq ${r(x, y, 'cpuSeq')}`,
    );
}

/**
 * The stdio legs' floor (bench-stdio-relay.mjs): their latency is absolute, agent and server
 * included, so a gateway's p99 there is read beside what the least gateway gets on the same three
 * processes. Information, not targets.
 */
function printStdioFloor(legs) {
  const fig = (name) =>
    figures(
      legs.find((l) => l.kind === 'stdio' && l.name === name && l.era === '2025'),
      legs,
    );
  const relay = fig('stdio relay');
  if (!relay) return;
  const r = (x, key) =>
    x && usable(x[key], key) && usable(relay[key], key)
      ? `${(x[key] / relay[key]).toFixed(2)}×`
      : 'n/a';
  for (const name of ['Airlock', ...PEER_NAMES]) {
    const x = fig(name);
    if (!x) continue;
    console.log(
      `  (info) ${`stdio 2025: ${name} ÷ stdio relay`.padEnd(46)} p50 ${r(x, 'p50')}, p99 ${r(x, 'p99')}, calls/s 8 cl ${r(x, 'callsPerS')}, CPU/call 8 cl ${r(x, 'cpu8')}`,
    );
  }
}
