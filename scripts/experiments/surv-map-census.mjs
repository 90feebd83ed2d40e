// Throwaway preload (issue 34, docs/performance.md "What keeps a finished call's objects alive at
// a scavenge"): inside `airlock serve` only, counts Map#set / Set#add of *new* keys per Map or Set
// and writes, every 5 s, the ones that took the most, with the stack of the first such add, to
// $SURV_MAPS_OUT/<pid>.txt. A Map or Set that outlives the calls and takes an entry each call is
// a nepotism risk: once its hash table is in old space, V8 (OrderedHashTable::Rehash) allocates
// each new table in old space too and leaves the old table, entries and all, as garbage that a
// scavenge still treats as a root (remembered set) until the next mark-sweep.
import fs from 'node:fs';

const out = process.env.SURV_MAPS_OUT;
if (out && process.argv.includes('serve')) {
  const seen = new WeakMap();
  const all = [];
  const track = (target, kind) => {
    let s = seen.get(target);
    if (!s) {
      s = { adds: 0, kind, stack: new Error().stack, ref: new WeakRef(target) };
      seen.set(target, s);
      all.push(s);
      if (all.length > 400_000) all.splice(0, 200_000);
    }
    s.adds++;
  };
  const { set } = Map.prototype;
  const { has: mapHas } = Map.prototype;
  Map.prototype.set = function (k, v) {
    if (!mapHas.call(this, k)) track(this, 'Map');
    return set.call(this, k, v);
  };
  const { add, has } = Set.prototype;
  Set.prototype.add = function (v) {
    if (!has.call(this, v)) track(this, 'Set');
    return add.call(this, v);
  };
  setInterval(() => {
    const top = all
      .filter((s) => s.adds > 200 && s.ref.deref() !== undefined)
      .sort((a, b) => b.adds - a.adds)
      .slice(0, 14);
    fs.writeFileSync(
      `${out}/${process.pid}.txt`,
      top
        .map(
          (s) =>
            `${s.adds} new keys, ${s.kind} of size ${s.ref.deref()?.size}\n${s.stack.split('\n').slice(2, 9).join('\n')}\n`,
        )
        .join('\n'),
    );
  }, 5000).unref();
}
