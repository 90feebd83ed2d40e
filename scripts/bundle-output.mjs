// rolldown's output options for the CLI bundle's characters and comments, shared by
// scripts/build-cli.mjs and main/cli/bundle-ascii-runtime.test.ts (which holds rolldown's printer
// to them on generated programs), so the two cannot drift apart.
//
// `shipped`: every character ASCII (non-ASCII ones escaped) and no comments but the licences'.
// Why (issue 34, the stdio tree's RSS): V8 keeps each module's source text on its heap for as long
// as the process runs (lazy compilation, Function#toString), one byte a character only if every
// character is Latin-1. One em dash in a comment made a whole chunk two bytes a character:
// cli.js, the session and SDK chunks held ≈ 5.2 MB of source that is ≈ 1.9 MB this way
// (docs/performance.md, "The bundle's source text"). A tagged template's raw text cannot be
// escaped: write such characters as `\u` escapes in the source (main/provenance/ip-hosts.ts);
// bundle-ascii.test.ts fails on any left.
//
// `reference`: characters as written and comments kept (`build-cli.mjs --charset=utf8`), what
// bundle-ascii.test.ts compares the shipped bundle with.
export const BUNDLE_OUTPUT = {
  shipped: { charset: 'ascii', comments: { legal: true, annotation: false, jsdoc: false } },
  reference: { charset: 'utf8', comments: true },
};
