import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApprovalView } from '../../common/contract/index.js';
import { App } from '../../main/app/app.js';
import { Logger } from '../../main/platform/log.js';
import { MemoryVault } from '../../main/platform/vault/vault.js';
import { KnownPartyStore } from '../../main/store/known-party-store.js';
import { openDatabase } from '../../main/store/db.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { PATIENT_READS, tempDir } from '../harness.js';
import { KNOWN_OUTSIDE, USER } from './mailbox.js';
import { CORPUS } from './scenarios.js';
import { corpusSources } from './sources.js';
import type { CorpusOutcome } from './run-direct.js';

/**
 * The corpus driven through Airlock itself (issue 22): one App with the
 * corpus's sources, one agent (own token, own MCP session) per session, every
 * step a real `tools/call`. A session's last call counts as flagged when it
 * became an approval request carrying a taint report — also for tools that
 * would run freely, which is the point.
 */
export async function runCorpusThroughAirlock(): Promise<{
  outcomes: CorpusOutcome[];
  app: App;
  stop: () => Promise<void>;
}> {
  const dataDir = tempDir('airlock-taint-');
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ approvals: { waitSeconds: 30 } }));
  // The user's circle as sent mail would show it: seeded the way approvals teach it.
  const db = openDatabase(join(dataDir, 'airlock.db'));
  const known = new KnownPartyStore(db);
  for (const a of KNOWN_OUTSIDE) known.add('address', a);
  db.close();

  const { mailbox, sources } = corpusSources();
  for (const s of CORPUS) for (const m of s.deliver ?? []) mailbox.deliver(m);
  const app = new App({
    dataDir,
    port: 0,
    vault: new MemoryVault(),
    sources,
    logger: new Logger({ stderr: false }),
    ownAddresses: [USER],
    readBounds: PATIENT_READS,
  });
  const started = await app.start();
  const outcomes: CorpusOutcome[] = [];
  for (const scenario of CORPUS) {
    const { token } = await app.control.addAgent(scenario.id);
    // The agent's client speaks URL elicitation (issue 16): a call that asks answers at once
    // with the approval link instead of blocking, and the request stays pending.
    const client = new Client(
      { name: 'taint-corpus-agent', version: '1.0.0' },
      { capabilities: { elicitation: { url: {} } } },
    );
    // The user's side: note the request (with its taint report, if any) and deny it, so the
    // client's retry gets the denial at once.
    const seen: { asked?: ApprovalView | undefined } = {};
    client.setRequestHandler('elicitation/create', async () => {
      const asked = (await app.control.listPending()).find((p) => p.agent === scenario.id);
      seen.asked = asked;
      if (asked) await app.control.decide(asked.id, { kind: 'deny', reason: 'taint corpus' });
      return { action: 'accept' };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(started.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      for (const [i, step] of scenario.steps.entries()) {
        seen.asked = undefined;
        await client.callTool({ name: step.tool, arguments: step.args });
        if (i < scenario.steps.length - 1) continue;
        const asked = seen.asked as ApprovalView | undefined; // set by the handler above
        const pending = asked?.tool === step.tool ? asked : undefined;
        outcomes.push({
          scenario,
          flagged: pending?.taint !== undefined,
          ...(pending?.taint ? { summary: pending.taint.summary } : {}),
        });
      }
    } finally {
      await client.close();
    }
  }
  return { outcomes, app, stop: () => app.stop() };
}
