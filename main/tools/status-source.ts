import type { CallToolResult, SourceState, ToolDefinition, ToolSource } from './types.js';

export interface StatusReport {
  version: string;
  paused: boolean;
  accounts: { email: string; state: string }[];
  servers: { name: string; state: string; detail?: string; tools: number }[];
  tools: { total: number; needApproval: string[] };
}

const DEFINITION: ToolDefinition = {
  name: 'airlock_status',
  title: 'Airlock status',
  description:
    'Tells you what Airlock connects you to: Google accounts, remote MCP servers and their state, and which of ' +
    "your tools need the user's approval before they run (those calls wait for a human decision). Read-only.",
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  trustedReadOnly: true,
};

/** The built-in source: one read-only tool that gives the gateway a real tool before any other source exists. */
export class StatusSource implements ToolSource {
  readonly id = 'airlock';
  readonly kind = 'builtin' as const;
  readonly label = 'Airlock';
  readonly prefix = '';

  constructor(private readonly report: (agent: string) => StatusReport) {}

  ready(): Promise<void> {
    return Promise.resolve();
  }
  status(): SourceState {
    return { state: 'ready' };
  }
  tools(): readonly ToolDefinition[] {
    return [DEFINITION];
  }
  onChange(): () => void {
    return () => {};
  }

  async call(
    tool: string,
    _args: Record<string, unknown>,
    ctx: { agent: string },
  ): Promise<CallToolResult> {
    if (tool !== DEFINITION.name) throw new Error(`Unknown tool ${tool}`);
    const report = this.report(ctx.agent);
    const lines = [
      `Airlock ${report.version}${report.paused ? ' — side effects are PAUSED by the user' : ''}.`,
      report.accounts.length
        ? `Google accounts: ${report.accounts.map((a) => `${a.email} (${a.state})`).join(', ')}.`
        : 'No Google account is connected.',
      report.servers.length
        ? `Remote MCP servers: ${report.servers.map((s) => `${s.name} (${s.state}${s.detail ? ': ' + s.detail : ''}, ${count(s.tools, 'tool')})`).join(', ')}.`
        : 'No remote MCP server is connected.',
      `You have ${count(report.tools.total, 'tool')}; ${report.tools.needApproval.length} ${report.tools.needApproval.length === 1 ? 'needs' : 'need'} the user's approval: ${report.tools.needApproval.join(', ') || 'none'}.`,
    ];
    return {
      content: [{ type: 'text', text: lines.join('\n') }],
      structuredContent: { ...report },
    };
  }
}

/** "1 tool", "3 tools". */
function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
