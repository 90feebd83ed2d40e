// Throwaway preload (issue 34, docs/performance.md "What keeps a finished call's objects alive at
// a scavenge"): inside `airlock serve` only, counts addEventListener calls per EventTarget (an
// AbortSignal, mostly) and writes, every 5 s, the targets that took the most listeners, with the
// stack of one add, to $SURV_LISTENERS_OUT/<pid>.txt. A target that takes a listener every call
// and outlives the calls is a nepotism risk: node:internal/event_target's Listener#remove
// unlinks a listener but keeps its own `next`, so a removed listener that was promoted keeps every
// listener added after it (and their closures) alive at each scavenge until a mark-sweep.
import fs from 'node:fs';

const out = process.env.SURV_LISTENERS_OUT;
if (out && process.argv.includes('serve')) {
  const seen = new WeakMap();
  const all = [];
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    let s = seen.get(this);
    if (!s) {
      s = {
        adds: 0,
        type,
        ctor: this?.constructor?.name,
        stack: new Error().stack,
        ref: new WeakRef(this),
      };
      seen.set(this, s);
      all.push(s);
      if (all.length > 200_000) all.splice(0, 100_000);
    }
    s.adds++;
    return add.call(this, type, fn, opts);
  };
  setInterval(() => {
    const top = all
      .filter((s) => s.adds > 20)
      .sort((a, b) => b.adds - a.adds)
      .slice(0, 10);
    const targets = all.length;
    fs.writeFileSync(
      `${out}/${process.pid}.txt`,
      `targets seen ${targets}\n` +
        top
          .map(
            (s) =>
              `${s.adds} adds, ${s.ctor} '${s.type}', alive ${s.ref.deref() !== undefined}\n${s.stack}\n`,
          )
          .join('\n'),
    );
  }, 5000).unref();
}
