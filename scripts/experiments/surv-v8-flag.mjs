// Throwaway preload (issue 34, docs/performance.md "What keeps a finished call's objects alive at
// a scavenge"): inside `airlock serve` only, sets the V8 flags in $SURV_V8_FLAGS at start (a
// diagnosis, not a setting to keep: e.g. --no-allocation-site-pretenuring, to see whether what
// the probe reads as "promoted" is V8 allocating a site's objects straight in old space).
import v8 from 'node:v8';

if (process.env.SURV_V8_FLAGS && process.argv.includes('serve'))
  v8.setFlagsFromString(process.env.SURV_V8_FLAGS);
