import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layering rule, run through the project's real ESLint config (eslint.config.js), on code
// placed at paths in each layer: every forbidden direction is reported, every allowed one is not.
const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'airlock/layers' || m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

describe('layers (eslint/layers.js)', () => {
  it.each([
    ['main/platform/x.ts', "import type { ToolSource } from '../tools/types.js';"],
    ['main/platform/x.ts', "import { App } from '../app/app.js';"],
    ['main/tools/x.ts', "import { App } from '../app/app.js';"],
    ['main/gateway/x.ts', "import type { CallPipeline } from '../app/call-pipeline.js';"],
    ['main/app/x.ts', "import { runCli } from '../cli.js';"],
    ['common/x.ts', "import { Logger } from '../main/platform/log.js';"],
    ['common/x.ts', "import { readFileSync } from 'node:fs';"],
    ['preload/x.ts', "import { App } from '../main/app/app.js';"],
    ['renderer/src/x.ts', "import type { Tool } from '../../main/tools/types.js';"],
    ['main/cli/x.ts', "import { startHarness } from '../../test-support/harness.js';"],
    ['main/google/x.ts', "export * from '../shell/tray.js';"],
    // Inside the services (issue 31): the five wrong imports its trial added, and more.
    ['main/tools/x.ts', "import { GoogleSource } from '../google/google-source.js';"],
    ['main/gateway/x.ts', "import { RemoteManager } from '../remote/remote-manager.js';"],
    ['main/approvals/x.ts', "import type { McpEndpoint } from '../gateway/mcp-endpoint.js';"],
    ['main/store/x.ts', "import { GrantService } from '../approvals/grants.js';"],
    ['main/shell/x.ts', "import { runCli } from '../cli/commands.js';"],
    ['main/cli/x.ts', "import { DesktopShell } from '../shell/desktop-shell.js';"],
    ['main/cli.ts', "import { runDesktop } from './shell/main-process.js';"],
    ['main/google/x.ts', "import { markUntrusted } from '../remote/untrusted.js';"],
    ['main/clients/x.ts', "import { AgentService } from '../agents/agent-service.js';"],
    ['main/provenance/x.ts', "import { RemoteManager } from '../remote/remote-manager.js';"],
    ['main/gateway/x.ts', "import { CallPipeline } from '../calls/call-pipeline.js';"],
    ['main/calls/x.ts', "import { App } from '../app/app.js';"],
    ['main/gateway/x.ts', "const m = await import('../app/app.js');"],
  ])('%s may not: %s', async (file, code) => {
    expect(await layerErrors(file, code)).not.toEqual([]);
  });

  it.each([
    ['main/platform/x.ts', "import type { CoreEvent } from '../../common/contract/index.js';"],
    ['main/tools/x.ts', "import { Logger } from '../platform/log.js';"],
    ['main/google/x.ts', "import { UNTRUSTED_META_KEY } from '../tools/untrusted.js';"],
    [
      'main/google/x.ts',
      "import { ProvenanceService } from '../provenance/provenance-service.js';",
    ],
    ['main/calls/x.ts', "import type { AgentToolCalls } from '../gateway/mcp-endpoint.js';"],
    ['main/calls/x.ts', "import type { AgentService } from '../agents/agent-service.js';"],
    ['main/app/x.ts', "import { CallPipeline } from '../calls/call-pipeline.js';"],
    ['main/store/x.ts', "import type { ToolDefinition } from '../tools/types.js';"],
    ['main/remote/stdio/x.ts', "import { RemoteManager } from '../remote-manager.js';"],
    ['main/cli.ts', "import { runCli } from './cli/commands.js';"],
    ['main/index.ts', "import { startDesktop } from './desktop.js';"],
    ['main/desktop.ts', "import { runDesktop } from './shell/main-process.js';"],
    ['main/app/x.ts', "import { Gateway } from '../gateway/http-server.js';"],
    ['main/cli/x.ts', "import { App } from '../app/app.js';"],
    ['preload/x.ts', "import { BRIDGE_KEY } from '../common/ipc-contract.js';"],
    ['renderer/src/x.ts', "import { ControlError } from '../../common/contract';"],
    ['main/app/x.test.ts', "import { startHarness } from '../../test-support/harness.js';"],
  ])('%s may: %s', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });

  it('a folder under main/ with no floor is an error, whatever it imports', async () => {
    const errors = await layerErrors('main/newfolder/x.ts', 'export const x = 1;');
    expect(errors.join('\n')).toMatch(/main\/newfolder\/ .*no floor|no floor/);
  });

  it('every folder under main/ today has a floor', async () => {
    const { readdirSync } = await import('node:fs');
    // @ts-expect-error -- a plain JS module (checked by // @ts-check in the file itself)
    const { LAYERS } = (await import('./layers.js')) as { LAYERS: { match: RegExp }[] };
    const main = new URL('../main/', import.meta.url);
    const folders = readdirSync(main, { withFileTypes: true }).filter((d) => d.isDirectory());
    const unranked = folders
      .map((d) => `main/${d.name}/x.ts`)
      .filter((p) => !LAYERS.some((l) => l.match.test(p)));
    expect(unranked).toEqual([]);
  });
});
