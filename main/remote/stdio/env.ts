/**
 * The environment a local server gets (issue 15): a short allow-list from
 * Airlock's own environment — what programs need to find themselves, the
 * user's home and temp dirs and the locale — plus the variables the user set
 * for that server. Never Airlock's whole environment: that would hand every
 * local server whatever secrets happen to sit in it (tokens in CI, cloud keys).
 *
 * The list follows the MCP SDK's StdioClientTransport default
 * (`DEFAULT_INHERITED_ENV_VARS`) with the locale and temp dirs added.
 */
const POSIX = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'LC_ALL', 'TMPDIR'];
const WINDOWS = [
  'PATH',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'USERNAME',
  'HOMEDRIVE',
  'HOMEPATH',
  'TEMP',
  'TMP',
  'SystemRoot',
  'SystemDrive',
  'windir',
  'ComSpec',
  'ProgramData',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramW6432',
  'PROCESSOR_ARCHITECTURE',
  'LANG',
];

export function inheritedNames(platform: NodeJS.Platform = process.platform): readonly string[] {
  return platform === 'win32' ? WINDOWS : POSIX;
}

/**
 * Builds the child's environment. Windows variable names are case-insensitive,
 * so the lookup there ignores case. Values that look like shell functions
 * (`() {`) are dropped, as the SDK does (Shellshock-style injection).
 */
export function childEnv(
  user: Record<string, string>,
  from: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const out: Record<string, string> = {};
  const lookup =
    platform === 'win32'
      ? (name: string) => {
          const key = Object.keys(from).find((k) => k.toLowerCase() === name.toLowerCase());
          return key === undefined ? undefined : from[key];
        }
      : (name: string) => from[name];
  for (const name of inheritedNames(platform)) {
    const value = lookup(name);
    if (value !== undefined && !value.startsWith('()')) out[name] = value;
  }
  return { ...out, ...user };
}
