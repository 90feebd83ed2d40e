// Child process for lazy-start.test.ts: which npm packages and which of Airlock's own modules
// does `airlock serve` load before its ready line, and which after an agent's first /mcp calls?
// Prints one JSON line. Packages are seen as in main/google/lazy-load.probe.mjs: a
// module.registerHooks() resolve hook records every URL the loader resolves (import and require).
import { registerHooks } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = new URL('../../dist/', import.meta.url);
const packages = new Set();
const own = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const m = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url);
    if (m) packages.add(m[1]);
    else if (resolved.url.startsWith(dist.href)) own.add(resolved.url.slice(dist.href.length));
    return resolved;
  },
});
// Node's own modules are not resolved through the hooks; process.moduleLoadList names them
// ("NativeModule internal/deps/undici/undici" once fetch, Request or Response is touched).
const snapshot = () => ({
  packages: [...packages].sort(),
  own: [...own].sort(),
  undici: process.moduleLoadList.some((m) => m.includes('internal/deps/undici')),
});
const load = (path) => import(new URL(path, dist).href);

// Start: the CLI's module graph, then a started App (what `airlock serve` does before "ready").
await load('main/cli.js');
const { App } = await load('main/app/app.js');
const { MemoryVault } = await load('main/platform/vault/vault.js');
const { Logger } = await load('main/platform/log.js');
const dataDir = mkdtempSync(join(tmpdir(), 'airlock-lazy-start-'));
const app = new App({
  dataDir,
  port: 0,
  vault: new MemoryVault(),
  skipLock: true,
  logger: new Logger({ stderr: false }),
});
const started = await app.start();
const { token } = await app.control.addAgent('probe');
await app.registry.whenReady();
const atStart = snapshot();

// First use: an agent initializes (2025 era, plain fetch so this process loads no MCP client) and
// calls airlock_status, whose empty input schema is validated like any other.
const post = async (body, sid) => {
  const res = await fetch(started.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sid ? { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, sid: res.headers.get('mcp-session-id'), text: await res.text() };
};
const init = await post({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'probe', version: '1' },
  },
});
await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, init.sid);
const call = await post(
  {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'airlock_status', arguments: {} },
  },
  init.sid,
);
const afterUse = snapshot();

console.log(
  JSON.stringify({
    atStart,
    afterUse,
    init: { status: init.status, hasSession: !!init.sid },
    call: { status: call.status, text: call.text },
  }),
);
await app.stop();
rmSync(dataDir, { recursive: true, force: true });
