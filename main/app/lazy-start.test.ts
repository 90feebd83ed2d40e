import { beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../test-support/probe-process.js';

/**
 * Issue 20 (cold start ≤ 300 ms, idle RSS ≤ 80 MiB): what an idle gateway never uses loads with
 * the first /mcp request, not at start — the MCP server SDK with the protocol's zod schemas
 * (main/gateway/lazy-mcp.ts) and Ajv (main/tools/schema-validator.ts). @modelcontextprotocol/node and
 * Hono never load: the gateway builds its web Request itself (main/gateway/http-server.ts). Nor
 * does Node's undici (fetch, Request, Response) until a request needs it: node:http is taken
 * through the CommonJS loader (main/platform/node-http.ts), whose ESM facade would load it.
 * Checked on the built app in a fresh process (lazy-start.probe.mjs); module lists, not times.
 */
const LAZY_PACKAGES = [
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/core',
  'ajv',
  're2js',
  // ≈ 15 MiB resident once imported; settings are read with main/platform/shape.ts instead.
  'zod',
  '@modelcontextprotocol/client',
];
const NEVER = ['@modelcontextprotocol/node', '@hono/node-server', 'hono'];
const LAZY_OWN = ['main/gateway/mcp-endpoint.js'];
/**
 * Issue 34 (cold start ≤ a bare SDK server): main/cli.ts loads the other commands' modules when
 * one of them runs; `airlock serve` never needs them, nor the packages only they import.
 */
const OTHER_COMMANDS = [
  'main/cli/commands.js',
  'main/cli/remote.js',
  'main/cli/clients.js',
  'main/cli/google.js',
  'main/cli/vault.js',
  'main/cli/open.js',
];
const OTHER_COMMANDS_PACKAGES = ['cross-spawn', 'which'];
/**
 * Issue 34: with no Google account connected neither Gmail nor Calendar offers a tool, so their
 * modules (definitions, handlers, compose and MIME, calendar times) and the packages only they
 * use load once an account is connected (main/google/lazy-source.ts), not at start.
 */
const GOOGLE_TOOL_DIRS = ['main/google/gmail/', 'main/google/calendar/', 'main/google/content/'];
// postal-mime stays: main/provenance reads addresses with it at start.
const GOOGLE_TOOL_PACKAGES = ['luxon'];

interface Loaded {
  packages: string[];
  own: string[];
  /** Node's bundled undici (fetch, Request, Response) is loaded. */
  undici: boolean;
}
interface Probe {
  atStart: Loaded;
  afterUse: Loaded;
  init: { status: number; hasSession: boolean };
  call: { status: number; text: string };
}

let probe: Probe;
beforeAll(async () => {
  probe = await runProbe<Probe>(
    new URL('./lazy-start.probe.mjs', import.meta.url),
    new URL('../../dist/main/gateway/lazy-mcp.js', import.meta.url),
  );
}, 60_000);

describe('start-up loads only what an idle gateway uses (issue 20)', () => {
  it('leaves the MCP server SDK, Ajv and the /mcp endpoint for the first request', () => {
    // The hook does see packages and modules: the ones start-up needs are there.
    expect(probe.atStart.packages).toEqual(expect.arrayContaining(['better-sqlite3']));
    expect(probe.atStart.own).toEqual(
      expect.arrayContaining(['main/gateway/http-server.js', 'main/calls/call-pipeline.js']),
    );
    expect(LAZY_PACKAGES.filter((p) => probe.atStart.packages.includes(p))).toEqual([]);
    expect(LAZY_OWN.filter((m) => probe.atStart.own.includes(m))).toEqual([]);
  });

  it("does not load the other CLI commands' modules, nor packages only they use (issue 34)", () => {
    expect(probe.atStart.own).toEqual(expect.arrayContaining(['main/cli.js', 'main/cli/serve.js']));
    expect(OTHER_COMMANDS.filter((m) => probe.atStart.own.includes(m))).toEqual([]);
    expect(OTHER_COMMANDS_PACKAGES.filter((p) => probe.atStart.packages.includes(p))).toEqual([]);
  });

  it("does not load Gmail's or Calendar's tool modules while no Google account is connected (issue 34)", () => {
    const google = probe.atStart.own.filter((m) => GOOGLE_TOOL_DIRS.some((d) => m.startsWith(d)));
    expect(google).toEqual([]);
    expect(GOOGLE_TOOL_PACKAGES.filter((p) => probe.atStart.packages.includes(p))).toEqual([]);
    // The stand-ins that load them on demand are there.
    expect(probe.atStart.own).toEqual(expect.arrayContaining(['main/google/lazy-source.js']));
  });

  it('does not load undici (fetch, Request, Response) before a request needs it', () => {
    expect(probe.atStart.undici).toBe(false);
    // The observation works: the first /mcp request builds a web Request.
    expect(probe.afterUse.undici).toBe(true);
  });

  it('loads them with the first /mcp request, which is answered', () => {
    expect(probe.init).toEqual({ status: 200, hasSession: true });
    expect(probe.call.status).toBe(200);
    expect(probe.call.text).toContain('"result"');
    expect(probe.call.text).not.toContain('"isError":true');
    expect(probe.afterUse.packages).toEqual(
      expect.arrayContaining(['@modelcontextprotocol/server', 'ajv']),
    );
    expect(probe.afterUse.own).toEqual(expect.arrayContaining(LAZY_OWN));
  });

  it('never loads the Node adapter package or Hono', () => {
    expect(NEVER.filter((p) => probe.afterUse.packages.includes(p))).toEqual([]);
  });
});
