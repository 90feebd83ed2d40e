import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ToolView } from '../../../../common/contract';
import { ToolRow } from './ToolRow';

/**
 * A tool Airlock cannot offer (an upstream's task-required tool, issue 14) is listed with its
 * reason, and its controls are off: switching it on would change nothing for agents.
 */
const base: ToolView = {
  name: 'up__report',
  key: 'up/report',
  source: 'up',
  description: 'Builds a long report.',
  readOnly: false,
  destructive: false,
  enabled: true,
  approval: 'ask',
  customized: false,
  inputSchema: { type: 'object' },
};
const render = (tool: ToolView) =>
  renderToStaticMarkup(
    <table>
      <tbody>
        <ToolRow tool={tool} busy={false} onEnabled={() => {}} onApproval={() => {}} />
      </tbody>
    </table>,
  );

describe('ToolRow', () => {
  it('shows why a tool is not offered, and disables its controls', () => {
    const html = render({
      ...base,
      unavailable: 'needs a feature this Airlock cannot relay',
    });
    expect(html).toContain('Not offered to agents: it needs a feature this Airlock cannot relay.');
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*disabled=""/);
    expect(html).not.toMatch(/<input[^>]*type="checkbox"[^>]*checked=""/);
    expect(html).toMatch(/aria-describedby="tool-up__report-unavailable"/);
    expect(html).toMatch(/<fieldset[^>]*disabled=""/);
  });

  it('an offered tool has no such note and live controls', () => {
    const html = render(base);
    expect(html).not.toContain('Not offered to agents');
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*checked=""/);
    expect(html).not.toMatch(/<input[^>]*type="checkbox"[^>]*disabled=""/);
  });
});
