import { codeUnits, textPrefix } from '../../common/text-cut.js';
import type { Logger } from '../platform/log.js';
import type { ActivityLog } from '../store/activity.js';

/**
 * Activity entries for what passes through without approval (issue 14):
 * resource reads, prompt gets, and relayed sampling/elicitation/roots
 * requests. Recorded as `auto` with the outcome and what was read.
 */
export class ReadActivity {
  constructor(
    private readonly activity: ActivityLog,
    private readonly logger: Logger,
  ) {}

  async recorded<T>(
    agent: string,
    tool: string,
    detail: string,
    started: number,
    run: () => Promise<T>,
  ): Promise<T> {
    try {
      const result = await run();
      this.record(agent, tool, 'ok', performance.now() - started, detail);
      return result;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.record(agent, tool, 'error', performance.now() - started, `${detail}: ${why}`);
      throw err;
    }
  }

  record(
    agent: string,
    tool: string,
    outcome: 'ok' | 'error',
    durationMs: number,
    detail?: string,
  ): void {
    try {
      // Queued, written off the answer path; the log tells the UI when it lands (issue 20).
      this.activity.add({
        agent,
        tool,
        decision: 'auto',
        outcome,
        durationMs,
        argsDigest: '',
        ...(detail ? { detail: textPrefix(detail, 200, codeUnits) } : {}),
      });
    } catch (err) {
      this.logger.error('could not write the activity log', { error: String(err) });
    }
  }
}
