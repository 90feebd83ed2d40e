import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { clientDefs } from '../clients/client-defs.js';
import { clientSetups } from './client-setup.js';

/** The setup `agent add` prints is what `clients connect` writes (issue 29.3: Gemini CLI and the rest). */
describe('client setup snippets', () => {
  const url = 'http://127.0.0.1:39905/mcp';
  const token = 'alk_snippet_token';
  const setups = clientSetups(url, token);
  const byLabel = new Map(clientDefs({ home: '/h', platform: 'linux' }).map((d) => [d.label, d]));

  it('one per client, JetBrains AI Assistant included', () => {
    expect(setups.map((s) => s.client)).toEqual([
      'Claude Code',
      'Claude Desktop',
      'Cursor',
      'VS Code',
      'Codex',
      'Windsurf',
      'Gemini CLI',
      'Antigravity',
      'Zed',
      'Cline',
      'JetBrains AI Assistant',
    ]);
    for (const s of setups) {
      expect(s.text).toContain(url);
      expect(s.text).toContain(`Bearer ${token}`);
    }
  });

  it('each file snippet parses and holds exactly the entry connect writes', () => {
    for (const s of setups.filter((x) => x.kind !== 'command')) {
      const def = byLabel.get(s.client);
      const parsed = (s.kind === 'toml' ? parseToml(s.text) : JSON.parse(s.text)) as Record<
        string,
        Record<string, unknown>
      >;
      const [servers] = Object.values(parsed);
      const entry = servers!.airlock;
      if (def) {
        expect(Object.keys(parsed)).toEqual([def.target.keyPath[0]]);
        expect(entry).toEqual(def.entry(url, token));
      } else {
        // JetBrains: no file Airlock edits; the same mcp-remote bridge as Claude Desktop.
        expect(entry).toEqual(byLabel.get('Claude Desktop')!.entry(url, token));
      }
    }
    expect(setups.find((s) => s.client === 'Gemini CLI')!.note).toMatch(/trust/);
  });
});
