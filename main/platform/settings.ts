import { existsSync, readFileSync, renameSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from './atomic-file.js';
import { googleSettingsSchema } from './google-settings-schema.js';

/**
 * Settings are the user's choices. They never hold a secret: tokens live in
 * the vault and settings only say that one exists.
 */
export const DEFAULT_PORT = 47821;

const approvalMode = z.enum(['auto', 'ask']);

export const toolSettingSchema = z.strictObject({
  enabled: z.boolean().optional(),
  approval: approvalMode.optional(),
});
export type ToolSetting = z.infer<typeof toolSettingSchema>;

export const agentSchema = z.strictObject({
  name: z.string(),
  createdAt: z.string(),
  /** Stable tool keys this agent may use; absent = every enabled tool. */
  tools: z.array(z.string()).optional(),
  /** Per-tool overrides for this agent, keyed by stable tool key. */
  overrides: z.record(z.string(), toolSettingSchema).default({}),
  /** "Always allow" grants: stable tool key -> ISO expiry, or null for no expiry. */
  grants: z.record(z.string(), z.string().nullable()).default({}),
});
export type AgentSettings = z.infer<typeof agentSchema>;

/**
 * A remote MCP server (issue 4). Only the shape lives here: header values and
 * the bearer token are secrets and stay in the vault (`remote:<name>:…`);
 * settings keep the header names and whether a token exists.
 */
export const remoteSchema = z.strictObject({
  name: z.string(),
  url: z.string(),
  enabled: z.boolean().default(true),
  /** Names of extra headers whose values are in the vault. */
  headerNames: z.array(z.string()).default([]),
  hasToken: z.boolean().default(false),
  createdAt: z.string(),
  /** A local server (issue 15; `url` is empty): its argv, cwd and plain env; secret env values are in the vault. */
  stdio: z
    .strictObject({
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      cwd: z.string().optional(),
      env: z.record(z.string(), z.string()).default({}),
      secretEnvNames: z.array(z.string()).default([]),
    })
    .optional(),
  /** The client it was imported from (main/clients/), if any. */
  origin: z.string().optional(),
});
export type RemoteSettings = z.infer<typeof remoteSchema>;

export const settingsSchema = z.strictObject({
  version: z.literal(1).default(1),
  port: z.number().int().min(0).max(65535).default(DEFAULT_PORT),
  paused: z.boolean().default(false),
  approvals: z
    .strictObject({
      waitSeconds: z.number().min(1).max(300).default(45),
      expireMinutes: z
        .number()
        .min(1)
        .max(24 * 60)
        .default(10),
      /** Repeats of a finished call within this window get the stored outcome. */
      outcomeWindowMinutes: z
        .number()
        .min(0)
        .max(24 * 60)
        .default(10),
      progressIntervalSeconds: z.number().min(1).max(60).default(5),
    })
    .prefault({}),
  /** Per-tool settings keyed by stable tool key (`source/tool`), kept when a tool disappears. */
  tools: z.record(z.string(), toolSettingSchema).default({}),
  agents: z.array(agentSchema).default([]),
  remotes: z.array(remoteSchema).default([]),
  /** Google OAuth client, accounts and endpoint overrides (issue 5; main/google/settings-schema.ts). */
  google: googleSettingsSchema.prefault({}),
  /** Desktop shell choices (issue 9): how an approval is asked — notification + window, or a native dialog. */
  shell: z
    .strictObject({ approvalStyle: z.enum(['window', 'dialog']).default('window') })
    .prefault({}),
  limits: z
    .strictObject({
      maxBodyBytes: z
        .number()
        .int()
        .min(1024)
        .default(4 * 1024 * 1024),
      resultChars: z.number().int().min(1000).default(20_000),
    })
    .prefault({}),
});
export type Settings = z.infer<typeof settingsSchema>;

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
    const parsed = settingsSchema.safeParse(draft);
    if (!parsed.success)
      throw new SettingsError(`Invalid settings: ${z.prettifyError(parsed.error)}`);
    writeFileAtomic(this.path, JSON.stringify(parsed.data, null, 2) + '\n');
    this.current = parsed.data;
    return this.current;
  }

  /** Re-reads the file (another process, e.g. the CLI, may have changed it). */
  reload(): Settings {
    this.current = this.read();
    return this.current;
  }

  private read(): Settings {
    if (!existsSync(this.path)) return settingsSchema.parse({});
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
      return settingsSchema.parse({});
    }
    const parsed = settingsSchema.safeParse(raw);
    if (!parsed.success) {
      throw new SettingsError(`${this.path} is invalid: ${z.prettifyError(parsed.error)}`);
    }
    return parsed.data;
  }
}
