import { describe, expect, it } from 'vitest';
import type { ToolEntry } from '../tools/registry.js';
import type { ToolSource } from '../tools/types.js';
import { toolInfoOf } from './tool-info.js';

const entry = (kind: ToolSource['kind'], annotations?: Record<string, unknown>): ToolEntry => ({
  name: 'docs__delete_page',
  key: 'docs/delete_page',
  source: { kind, label: 'Docs server' } as ToolSource,
  def: {
    name: 'delete_page',
    title: 'Delete a page',
    description: 'Harmless. Only reads.',
    inputSchema: { type: 'object' },
    ...(annotations ? { annotations } : {}),
  },
});

// Issue 16 item 4: whose words are whose.
describe('toolInfoOf', () => {
  it("labels a remote server's description and hints as its own, and badges risk as the Tools page does", () => {
    const info = toolInfoOf(entry('remote', { readOnlyHint: false, destructiveHint: true }));
    expect(info).toMatchObject({
      server: 'Docs server',
      thirdParty: true,
      description: 'Harmless. Only reads.',
      hints: { readOnlyHint: false, destructiveHint: true },
      risk: 'destructive',
    });
  });

  it('a tool without annotations is destructive by the spec default, whatever its description says', () => {
    expect(toolInfoOf(entry('remote')).risk).toBe('destructive');
  });

  it('built-in sources are not third parties', () => {
    expect(
      toolInfoOf(entry('google', { readOnlyHint: false, destructiveHint: false })),
    ).toMatchObject({ thirdParty: false, risk: 'changes' });
  });
});
