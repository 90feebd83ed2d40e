import { describe, expect, it } from 'vitest';
import type { SourceStatusView, ToolView } from '../../../../common/contract';
import { badgesOf, groupTools, policyCall, rowIsStale } from './tools-model';

const tool = (name: string, source: string, over: Partial<ToolView> = {}): ToolView => ({
  name,
  key: `${source}/${name}`,
  source,
  description: `${name} does things`,
  readOnly: false,
  destructive: false,
  enabled: true,
  approval: 'ask',
  customized: false,
  inputSchema: {},
  ...over,
});
const sources: SourceStatusView[] = [
  { id: 'google', kind: 'google', label: 'Google', state: 'ready', toolCount: 2 },
  {
    id: 'remote:linear',
    kind: 'remote',
    label: 'linear',
    state: 'error',
    detail: '401',
    toolCount: 0,
  },
];

describe('tools grouping', () => {
  const tools = [
    tool('gmail_send', 'google'),
    tool('gmail_search', 'google', { readOnly: true, approval: 'auto', title: 'Search mail' }),
    tool('other', 'mystery', { enabled: false }),
  ];

  it('groups by source in source order, unknown sources last, empty groups dropped', () => {
    const groups = groupTools(tools, sources, '');
    expect(groups.map((g) => [g.label, g.tools.map((t) => t.name)])).toEqual([
      ['Google', ['gmail_send', 'gmail_search']],
      ['mystery', ['other']],
    ]);
  });

  it('matches every word against name, title and description, case-insensitively', () => {
    expect(groupTools(tools, sources, 'SEARCH mail')[0]!.tools.map((t) => t.name)).toEqual([
      'gmail_search',
    ]);
    expect(groupTools(tools, sources, 'nothing-like-this')).toEqual([]);
  });

  it('filters by mode', () => {
    const names = (only: 'ask' | 'auto' | 'disabled') =>
      groupTools(tools, sources, '', only).flatMap((g) => g.tools.map((t) => t.name));
    expect(names('ask')).toEqual(['gmail_send']);
    expect(names('auto')).toEqual(['gmail_search']);
    expect(names('disabled')).toEqual(['other']);
  });

  it('badges: read-only, destructive or changes, then customized', () => {
    expect(badgesOf(tool('a', 's', { readOnly: true }))).toEqual(['read-only']);
    expect(badgesOf(tool('a', 's', { destructive: true, customized: true }))).toEqual([
      'destructive',
      'customized',
    ]);
    expect(badgesOf(tool('a', 's'))).toEqual(['changes']);
  });
});

describe('policyCall', () => {
  // The row's name can pass to another tool before the click reaches the core (a server relists
  // its tools): the change carries the key of the row shown, which the core holds the name to.
  it('holds every change made on a row to the key of the tool that row showed', () => {
    const row = tool('count_send', 'count');
    expect(policyCall(row, { approval: 'auto', confirmDestructive: true })).toEqual([
      'count_send',
      { approval: 'auto', confirmDestructive: true, key: 'count/count_send' },
    ]);
    expect(policyCall({ ...row, agent: 'claude' }, { enabled: true })).toEqual([
      'count_send',
      { enabled: true, key: 'count/count_send', agent: 'claude' },
    ]);
  });

  it("the key is the row's, whatever key a patch carries", () => {
    const [, patch] = policyCall(tool('a', 'x'), { approval: 'auto', key: 'y/b' });
    expect(patch.key).toBe('x/a');
  });

  // While the page re-reads the tools for another agent, the rows on screen are still the old
  // agent's: a click on one is about the agent whose settings it shows, never the new selection.
  it("the agent is the row's, whatever agent a patch or the selector carries", () => {
    const everyone = tool('a', 'x');
    expect(policyCall(everyone, { approval: 'auto', agent: 'cursor' })[1]).toEqual({
      approval: 'auto',
      key: 'x/a',
    });
    expect(policyCall({ ...everyone, agent: 'claude' }, { approval: 'auto' })[1].agent).toBe(
      'claude',
    );
  });

  it('a row listed for another agent than the selector names is stale (not clickable)', () => {
    const row = tool('a', 'x');
    expect(rowIsStale(row, '')).toBe(false);
    expect(rowIsStale(row, 'claude')).toBe(true);
    expect(rowIsStale({ ...row, agent: 'claude' }, 'claude')).toBe(false);
    expect(rowIsStale({ ...row, agent: 'claude' }, '')).toBe(true);
  });
});
