// `airlock`, as bin/airlock.js runs it, plus the e2e suite's tool sources (counting and blocking
// tools, e2e/fixtures/test-sources.mjs), passed in through main()'s injections. Production code
// loads no module named by the environment (issue 31); tests start this entry instead.
import { createSources } from '../e2e/fixtures/test-sources.mjs';

// The CLI bundle, as bin/airlock.js runs it (scripts/build-cli.mjs; its cli.js exports main()).
const { main } = await import(new URL('../dist/main/bundle/cli.js', import.meta.url).href);
const code = await main(process.argv.slice(2), { sources: createSources() });
if (typeof code === 'number') process.exitCode = code;
