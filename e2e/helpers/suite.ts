import { test } from '@playwright/test';
import {
  addAgent,
  newProfile,
  startServer,
  writeSettings,
  type Profile,
  type RunningServer,
} from './airlock-server.js';
import { connectAgent, type Agent } from './mcp-client.js';

export interface Suite {
  profile: Profile;
  server: RunningServer;
  agent: Agent;
  agentToken: string;
}

/**
 * One `airlock serve` (with the test tool source) and one connected MCP
 * agent for a describe block: started in beforeAll, stopped in afterAll.
 * Tests in the block share it, so each uses its own arguments (a marker).
 */
export function useAirlock(
  opts: { settings?: Record<string, unknown>; agentName?: string } = {},
): () => Suite {
  let suite: Suite | undefined;
  test.beforeAll(async () => {
    const profile = newProfile();
    // A call the test decides waits for it however slow the machine (300 s, past the test's
    // timeout), not the 45 s default: an approval clicked through a loaded Chromium must never
    // find its call already answered "waiting" (issue 29 item 2). A spec about the wait sets its
    // own.
    writeSettings(profile, opts.settings ?? { approvals: { waitSeconds: 300 } });
    const agentToken = await addAgent(profile, opts.agentName ?? 'e2e-agent');
    const server = await startServer(profile);
    const agent = await connectAgent(server.mcpUrl, agentToken);
    suite = { profile, server, agent, agentToken };
  });
  test.afterAll(async () => {
    await suite?.agent.close();
    await suite?.server.stop();
  });
  return () => {
    if (!suite) throw new Error('useAirlock: the server did not start (see beforeAll)');
    return suite;
  };
}

let n = 0;
/** A unique value to put in a call's arguments, so calls never attach to another test's request. */
export const marker = (label: string) =>
  `${label}-${process.pid}-${Date.now().toString(36)}-${n++}`;
