import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { cutTables, setTable } from './edit-toml.js';

describe('targeted TOML edits', () => {
  const text = `# top
[mcp_servers."my server"]
command = "x"
notes = """
[mcp_servers.fake]
not a header
"""

[mcp_servers."my server".env]
K = "v"

# about other
[mcp_servers.other] # trailing comment
url = "https://o.example/mcp"
`;

  it('cuts a table with its sub-tables, quoted keys, and ignores header-like lines inside multi-line strings', () => {
    const out = cutTables(text, ['mcp_servers', 'my server']).text;
    expect(parse(out)).toEqual({ mcp_servers: { other: { url: 'https://o.example/mcp' } } });
    expect(out).toContain('# top');
    expect(out).toContain('# about other');
    expect(out).toContain('[mcp_servers.other] # trailing comment');
  });

  it('replaces a table where it stands and appends a new one at the end, CRLF kept', () => {
    const crlf = text.replace(/\n/g, '\r\n');
    const replaced = setTable(crlf, ['mcp_servers', 'other'], {
      url: 'http://127.0.0.1:1/mcp',
      http_headers: { Authorization: 'Bearer "q"' },
    });
    expect(replaced).not.toMatch(/[^\r]\n/);
    expect((parse(replaced) as { mcp_servers: Record<string, unknown> }).mcp_servers.other).toEqual(
      {
        url: 'http://127.0.0.1:1/mcp',
        http_headers: { Authorization: 'Bearer "q"' },
      },
    );
    const appended = setTable('', ['mcp_servers', 'airlock'], { url: 'u' });
    expect(appended).toBe('[mcp_servers.airlock]\nurl = "u"\n');
  });
});
