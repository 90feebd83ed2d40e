/**
 * ControlApi: the one typed contract between Airlock's core and any UI.
 *
 * Implemented by the core (main/app/control-service.ts), carried over
 * Electron IPC by the preload and over HTTP + server-sent events by the
 * headless gateway (main/gateway/control-routes.ts), and consumed by the
 * React renderer and the CLI. Secrets never cross it: views say
 * `hasToken: true`, never the token. The one exception is `addAgent`, which
 * returns a new agent token exactly once, to the user who asked for it.
 *
 * Runtime-neutral (no Node, no DOM, no Electron): split by domain, one file
 * each; this index is the one import path for main, preload and renderer.
 */
export * from './activity.js';
export * from './agents.js';
export * from './approvals.js';
export * from './clients.js';
export * from './control-api.js';
export * from './errors.js';
export * from './events.js';
export * from './google.js';
export * from './policy.js';
export * from './servers.js';
export * from './status.js';
export * from './tools.js';
