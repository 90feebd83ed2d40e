// Child process for serve-start.test.ts: runs bin/airlock.js with the given arguments and, when
// the ready line is written, puts every module URL the loader resolved (import and require) into
// the file named by AIRLOCK_PROBE_OUT. Seen as main/app/lazy-start.probe.mjs sees them: a
// module.registerHooks() resolve hook.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const urls = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    urls.add(resolved.url);
    return resolved;
  },
});
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('"event":"ready"'))
    writeFileSync(process.env.AIRLOCK_PROBE_OUT, [...urls].join('\n'));
  return write(chunk, ...rest);
};
await import(new URL('../../bin/airlock.js', import.meta.url).href);
