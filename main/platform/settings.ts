import { existsSync, readFileSync, renameSync } from 'node:fs';
import { writeFileAtomic } from './atomic-file.js';
import { googleSettingsSchema } from './google-settings-schema.js';
import {
  array,
  boolean,
  nullable,
  number,
  object,
  oneOf,
  optional,
  parse,
  record,
  safeParse,
  string,
  withDefault,
  type Infer,
} from './shape.js';

/**
 * Settings are the user's choices. They never hold a secret: tokens live in
 * the vault and settings only say that one exists.
 */
export const DEFAULT_PORT = 47821;

const approvalMode = oneOf('auto', 'ask');

export const toolSettingSchema = object({
  enabled: optional(boolean()),
  approval: optional(approvalMode),
});
export type ToolSetting = Infer<typeof toolSettingSchema>;

export const agentSchema = object({
  name: string(),
  createdAt: string(),
  /** Stable tool keys this agent may use; absent = every enabled tool. */
  tools: optional(array(string())),
  /** Per-tool overrides for this agent, keyed by stable tool key. */
  overrides: withDefault(record(toolSettingSchema), {}),
  /** "Always allow" grants: stable tool key -> ISO expiry, or null for no expiry. */
  grants: withDefault(record(nullable(string())), {}),
});
export type AgentSettings = Infer<typeof agentSchema>;

/**
 * A remote MCP server (issue 4). Only the shape lives here: header values and
 * the bearer token are secrets and stay in the vault (`remote:<name>:…`);
 * settings keep the header names and whether a token exists.
 */
export const remoteSchema = object({
  name: string(),
  url: string(),
  /**
   * The user marked the whole URL secret (`remote add --url-stdin`; docs/security.md, "No credentials of a server URL"): every path
   * segment and query value is in the vault (`remote:<name>:query`) and `url` shows each as `***`.
   */
  urlSecret: optional(boolean()),
  enabled: withDefault(boolean(), true),
  /** Its sampling, elicitation and roots requests reach agents (issue 27, item 3); off: refused. */
  relay: withDefault(boolean(), true),
  /** Names of extra headers whose values are in the vault. */
  headerNames: withDefault(array(string()), []),
  hasToken: withDefault(boolean(), false),
  createdAt: string(),
  /** A local server (issue 15; `url` is empty): its argv, cwd and plain env; secret env values are in the vault. */
  stdio: optional(
    object({
      command: string({ min: 1 }),
      args: withDefault(array(string()), []),
      cwd: optional(string()),
      env: withDefault(record(string()), {}),
      secretEnvNames: withDefault(array(string()), []),
      /** Its sandbox (issue 35); absent (added before): the working folder read-write, any network. */
      sandbox: optional(
        object({
          read: withDefault(array(string()), []),
          write: withDefault(array(string()), []),
          network: withDefault(oneOf('none', 'any', 'hosts'), 'any'),
          hosts: withDefault(array(string()), []),
          allowUnsandboxed: withDefault(boolean(), false),
        }),
      ),
    }),
  ),
  /** The client it was imported from (main/clients/), if any. */
  origin: optional(string()),
  /**
   * Where a server named by a host name was first reached (main/remote/http/address-pin.ts):
   * `public`, and a later answer on the user's network is refused. Absent: not reached yet (or
   * added before this was kept); recorded at its next successful connection. Cleared by a new URL.
   */
  reach: optional(oneOf('public', 'private')),
});
export type RemoteSettings = Infer<typeof remoteSchema>;

export const settingsSchema = object({
  version: withDefault(oneOf(1), 1),
  port: withDefault(number({ int: true, min: 0, max: 65535 }), DEFAULT_PORT),
  paused: withDefault(boolean(), false),
  approvals: withDefault(
    object({
      waitSeconds: withDefault(number({ min: 1, max: 300 }), 45),
      expireMinutes: withDefault(number({ min: 1, max: 24 * 60 }), 10),
      /** Repeats of a finished call within this window get the stored outcome. */
      outcomeWindowMinutes: withDefault(number({ min: 0, max: 24 * 60 }), 10),
      progressIntervalSeconds: withDefault(number({ min: 1, max: 60 }), 5),
    }),
    {},
  ),
  /** Per-tool settings keyed by stable tool key (`source/tool`), kept when a tool disappears. */
  tools: withDefault(record(toolSettingSchema), {}),
  agents: withDefault(array(agentSchema), []),
  remotes: withDefault(array(remoteSchema), []),
  /** Google OAuth client, accounts and endpoint overrides (issue 5; google-settings-schema.ts). */
  google: withDefault(googleSettingsSchema, {}),
  /** Desktop shell choices (issue 9): how an approval is asked — notification + window, or a native dialog. */
  shell: withDefault(
    object({ approvalStyle: withDefault(oneOf('window', 'dialog'), 'window') }),
    {},
  ),
  limits: withDefault(
    object({
      maxBodyBytes: withDefault(number({ int: true, min: 1024 }), 4 * 1024 * 1024),
      resultChars: withDefault(number({ int: true, min: 1000 }), 20_000),
    }),
    {},
  ),
});
export type Settings = Infer<typeof settingsSchema>;

export class SettingsError extends Error {
  override name = 'SettingsError';
}

export class SettingsStore {
  private current: Settings;

  constructor(private readonly path: string) {
    this.current = this.read();
  }

  get(): Settings {
    return this.current;
  }

  /** Applies a change to a copy, validates it, writes atomically, then swaps it in. */
  update(change: (draft: Settings) => void): Settings {
    const draft = structuredClone(this.current);
    change(draft);
    const parsed = safeParse(settingsSchema, draft);
    if (!parsed.ok) throw new SettingsError(`Invalid settings: ${parsed.error.message}`);
    writeFileAtomic(this.path, JSON.stringify(parsed.value, null, 2) + '\n');
    this.current = parsed.value;
    return this.current;
  }

  /** Re-reads the file (another process, e.g. the CLI, may have changed it). */
  reload(): Settings {
    this.current = this.read();
    return this.current;
  }

  private read(): Settings {
    if (!existsSync(this.path)) return parse(settingsSchema, {});
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (err) {
      // Keep the broken file for the user to inspect rather than overwriting it.
      const aside = `${this.path}.broken-${Date.now()}`;
      renameSync(this.path, aside);
      process.stderr.write(
        `airlock: settings.json was not valid JSON; moved it to ${aside} (${String(err)})\n`,
      );
      return parse(settingsSchema, {});
    }
    const parsed = safeParse(settingsSchema, raw);
    if (!parsed.ok) throw new SettingsError(`${this.path} is invalid: ${parsed.error.message}`);
    return parsed.value;
  }
}
