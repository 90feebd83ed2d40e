import { describe, expect, it } from 'vitest';
import { remoteCommand } from './remote.js';
import { headerValues } from './header-values.js';

/** Issue 17, item 8: header values (API keys) never on the command line, where `ps` shows them. */
const noStdin = () => Promise.reject(new Error('stdin was not expected'));

describe('remote header values', () => {
  it('--header "K: V" is refused before anything connects, naming the safe ways', async () => {
    for (const sub of [
      ['add', 'svc', 'http://127.0.0.1:9/mcp'],
      ['probe', 'http://127.0.0.1:9/mcp'],
    ]) {
      await expect(remoteCommand([...sub, '--header', 'X-Api-Key: s3cret'])).rejects.toThrow(
        /other processes can read it \(ps\).*--header-env 'X-Api-Key=ENV_VAR'.*--headers-stdin/,
      );
    }
  });

  it('--header-env takes the value from the environment; a missing variable is a clear error', async () => {
    expect(
      await headerValues({ 'header-env': ['X-Api-Key=MY_KEY'] }, noStdin, { MY_KEY: 's3cret' }),
    ).toEqual({
      'X-Api-Key': 's3cret',
    });
    await expect(headerValues({ 'header-env': ['X-Api-Key=MY_KEY'] }, noStdin, {})).rejects.toThrow(
      /MY_KEY is empty or not set/,
    );
  });

  it('--headers-stdin reads "K: V" lines; it cannot share stdin with --bearer-stdin', async () => {
    expect(
      await headerValues(
        { 'headers-stdin': true },
        () => Promise.resolve('X-A: 1\n\nX-B: two words\n'),
        {},
      ),
    ).toEqual({ 'X-A': '1', 'X-B': 'two words' });
    await expect(
      headerValues({ 'headers-stdin': true, 'bearer-stdin': true }, noStdin, {}),
    ).rejects.toThrow(/both read standard input/);
  });
});
