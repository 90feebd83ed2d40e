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

  it.each([
    ['server-down', 'Not offered to agents: its server "up" is not connected (unreachable).'],
    [
      'sign-in',
      'Not offered to agents: its server "up" needs you to sign in again (sign-in required; Servers page).',
    ],
  ] as const)('a tool of a server that is %s says why; its controls are off', (reason, text) => {
    const html = render({ ...base, enabled: false, notOffered: { reason, text } });
    expect(html).toContain(text.replace(/"/g, '&quot;'));
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*disabled=""/);
    expect(html).toMatch(new RegExp(`data-not-offered="${reason}"`));
  });

  it.each([
    ['turned-off', 'Turned off for every agent (by you).', false],
    ['turned-off-for-agent', 'Turned off for test (by you).', false],
    [
      'not-chosen-for-agent',
      'Hidden from test: it is limited to other tools (Agents page).',
      false,
    ],
    [
      'google-scope',
      'Offered, but no call can run: alice@example.com did not allow Airlock …',
      true,
    ],
  ] as const)(
    '%s: the reason is shown and the user can still switch it',
    (reason, text, enabled) => {
      const html = render({ ...base, enabled, notOffered: { reason, text } });
      expect(html).toContain(text);
      expect(html).not.toMatch(/<input[^>]*type="checkbox"[^>]*disabled=""/);
      expect(html).toMatch(/aria-describedby="tool-up__report-unavailable"/);
    },
  );

  it('an offered tool has no such note and live controls', () => {
    const html = render(base);
    expect(html).not.toContain('Not offered to agents');
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*checked=""/);
    expect(html).not.toMatch(/<input[^>]*type="checkbox"[^>]*disabled=""/);
  });
});
