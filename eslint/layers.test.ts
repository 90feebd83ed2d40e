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
  ])('%s may not: %s', async (file, code) => {
    expect(await layerErrors(file, code)).not.toEqual([]);
  });

  it.each([
    ['main/platform/x.ts', "import type { CoreEvent } from '../../common/contract/index.js';"],
    ['main/tools/x.ts', "import { Logger } from '../platform/log.js';"],
    ['main/google/x.ts', "import { UNTRUSTED_META_KEY } from '../remote/untrusted.js';"],
    ['main/app/x.ts', "import { Gateway } from '../gateway/http-server.js';"],
    ['main/cli/x.ts', "import { App } from '../app/app.js';"],
    ['preload/x.ts', "import { BRIDGE_KEY } from '../common/ipc-contract.js';"],
    ['renderer/src/x.ts', "import { ControlError } from '../../common/contract';"],
    ['main/app/x.test.ts', "import { startHarness } from '../../test-support/harness.js';"],
  ])('%s may: %s', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});
