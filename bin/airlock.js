#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build`.
import { main } from '../dist/main/cli.js';

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`airlock: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
