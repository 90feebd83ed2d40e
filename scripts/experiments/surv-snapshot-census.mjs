// Throwaway (issue 34, docs/performance.md "What keeps a finished call's objects alive at a
// scavenge"): a census of a .heapsnapshot taken under load — objects by constructor (or closure
// by name), with counts — and, for the node:http request objects, one retainer path each to a
// GC root, to see whether finished calls are held by something live.
//
//   node scripts/experiments/surv-snapshot-census.mjs FILE.heapsnapshot [--top 40] [--paths Name,Name]
import fs from 'node:fs';

const file = process.argv[2];
const arg = (n, f) => {
  const i = process.argv.indexOf(`--${n}`);
  return i < 0 ? f : process.argv[i + 1];
};
const snap = JSON.parse(fs.readFileSync(file, 'utf8'));
const m = snap.snapshot.meta;
const NF = m.node_fields.length;
const EF = m.edge_fields.length;
const nTypes = m.node_fields.indexOf('type');
const nName = m.node_fields.indexOf('name');
const nEdges = m.node_fields.indexOf('edge_count');
const nSize = m.node_fields.indexOf('self_size');
const nId = m.node_fields.indexOf('id');
const eType = m.edge_fields.indexOf('type');
const eName = m.edge_fields.indexOf('name_or_index');
const eTo = m.edge_fields.indexOf('to_node');
const nodeTypes = m.node_types[0];
const edgeTypes = m.edge_types[0];
const { nodes, edges, strings } = snap;
const count = nodes.length / NF;
const firstEdge = new Uint32Array(count + 1);
for (let i = 0, e = 0; i < count; i++) {
  firstEdge[i] = e;
  e += nodes[i * NF + nEdges] * EF;
}
firstEdge[count] = edges.length;
const type = (i) => nodeTypes[nodes[i * NF + nTypes]];
const name = (i) => strings[nodes[i * NF + nName]];
// Retainers, and a census by type+name.
const census = new Map();
const retainers = Array.from({ length: count }, () => []);
for (let i = 0; i < count; i++) {
  const key = `${type(i)}:${name(i)}`;
  const c = census.get(key) ?? { n: 0, bytes: 0 };
  c.n++;
  c.bytes += nodes[i * NF + nSize];
  census.set(key, c);
  for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += EF) {
    const to = edges[e + eTo] / NF;
    const et = edgeTypes[edges[e + eType]];
    if (et === 'weak') continue;
    const en = et === 'element' || et === 'hidden' ? edges[e + eName] : strings[edges[e + eName]];
    retainers[to].push([i, `${et}:${en}`]);
  }
}
const top = Number(arg('top', 40));
for (const [k, c] of [...census]
  .filter(([k]) => /^(object|closure):/.test(k))
  .sort((a, b) => b[1].n - a[1].n)
  .slice(0, top))
  console.log(String(c.n).padStart(7), String(c.bytes).padStart(9), k);
// One shortest retainer path per object of the named constructors (BFS from the object to root 0).
const wanted = new Set(arg('paths', 'IncomingMessage,ClientRequest,ServerResponse').split(','));
for (let i = 0; i < count; i++) {
  if (!['object', 'closure'].includes(type(i)) || !wanted.has(name(i))) continue;
  const prev = new Map([[i, null]]);
  let q = [i];
  let found = -1;
  while (q.length && found < 0) {
    const nq = [];
    for (const x of q) {
      for (const [r, label] of retainers[x]) {
        if (prev.has(r)) continue;
        prev.set(r, [x, label]);
        if (r === 0 || type(r) === 'synthetic') {
          found = r;
          break;
        }
        nq.push(r);
      }
      if (found >= 0) break;
    }
    q = nq;
  }
  const path = [];
  for (let x = found; x !== i && x >= 0;) {
    const [child, label] = prev.get(x);
    path.push(`${type(x)}:${name(x).slice(0, 40)} -${label}->`);
    x = child;
  }
  console.log(`\n${name(i)} @${nodes[i * NF + nId]}:`, path.slice(-8).join(' '));
}
