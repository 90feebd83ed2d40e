/**
 * node:http, taken through the CommonJS loader. An ESM `import … from 'node:http'` builds a module
 * facade that reads every export once, the lazy WebSocket/MessageEvent getters included — and
 * those load undici, Node's fetch implementation: ≈ 20 ms of CPU and ≈ 10 MB of RSS at start that
 * an idle gateway never uses (issue 20; main/app/lazy-start.test.ts checks undici is not loaded
 * at start). Types still come from `import type … from 'node:http'`.
 */
export const http = process.getBuiltinModule('node:http');
