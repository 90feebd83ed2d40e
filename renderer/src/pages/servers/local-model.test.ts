import { describe, expect, it } from 'vitest';
import { commandLine, stdioFrom } from './local-model';

describe('local server form', () => {
  it('one argument per line, env rows split into plain and secret', () => {
    expect(
      stdioFrom(
        ' npx ',
        '-y\n@modelcontextprotocol/server-filesystem\n\n/Users/me/My Documents\n',
        '',
        [
          { name: 'LOG', value: 'debug', secret: false },
          { name: 'API_KEY', value: 'k-1', secret: true },
          { name: '', value: '', secret: false },
        ],
      ),
    ).toEqual({
      ok: true,
      stdio: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/My Documents'],
        env: { LOG: 'debug' },
        secretEnv: { API_KEY: 'k-1' },
      },
    });
    expect(stdioFrom('', '', '', [])).toMatchObject({ ok: false });
    expect(stdioFrom('x', '', '', [{ name: '', value: 'v', secret: true }])).toEqual({
      ok: false,
      error: 'Variable 1 has a value but no name.',
    });
    expect(
      stdioFrom('x', '', '', [
        { name: 'A', value: '1', secret: false },
        { name: 'A', value: '2', secret: true },
      ]),
    ).toMatchObject({ ok: false, error: 'Variable A is given twice.' });
  });

  it('shows a command line with quoted arguments where needed', () => {
    expect(commandLine({ command: 'npx', args: ['-y', 'pkg', '/a b'] })).toBe('npx -y pkg "/a b"');
  });
});
