#!/usr/bin/env node
// Runs before `npm start` builds anything (issue 19, item 1): on a Node older than
// package.json's "engines" it stops at once with the reason and the fix, instead of
// building and failing later with an unrelated error. CommonJS and old syntax on purpose:
// it must parse on any Node a fresh machine may have.
'use strict';
var need = [22, 12];
var have = process.versions.node.split('.').map(Number);
var ok = have[0] > need[0] || (have[0] === need[0] && have[1] >= need[1]);
if (!ok) {
  process.stderr.write(
    'airlock: Node.js >= ' +
      need.join('.') +
      ' is required; this is ' +
      'v' +
      process.versions.node +
      ' (' +
      process.execPath +
      ').\n' +
      'airlock: fix: run "sh scripts/setup.sh" (installs Node 22 from the npm registry under\n' +
      '  ~/.cache/airlock-node22 and prints the PATH line to use), or install Node 22 yourself\n' +
      '  (nvm install 22, or the Node 22 package of your distribution) and put it first in PATH.\n',
  );
  process.exit(1);
}
