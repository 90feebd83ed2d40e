import { hash, randomBytes } from 'node:crypto';
import type { AgentView } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { Logger } from '../platform/log.js';
import type { AgentSettings, SettingsStore } from '../platform/settings.js';
import type { Vault } from '../platform/vault/vault.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}$/;
const vaultKey = (name: string) => `agent:${name}`;
// One-shot crypto.hash: the same SHA-256 hex as createHash().update().digest(), without a Hash
// object per request (issue 34: hashing the bearer token was 1.8% of the gateway's busy time).
const digest = (token: string) => hash('sha256', token, 'hex');

/** 256 bits from the OS CSPRNG, with a recognisable prefix for secret scanners. */
export function newToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/**
 * Named agents and their bearer tokens. Tokens live in the vault; in memory
 * the gateway keeps only their SHA-256, so a lookup never compares secrets
 * byte by byte and a revoke takes effect on the next request.
 */
export class AgentService {
  private readonly byDigest = new Map<string, string>();
  /**
   * Date.now() of each agent's last authenticated request; made an ISO string only when listed
   * (per request, toISOString cost more than the rest of authenticate, issue 34).
   */
  private readonly lastSeen = new Map<string, number>();
  /** Agents whose token the vault no longer has (e.g. a throwaway keyring was restarted). */
  private readonly missing = new Set<string>();
  private readonly revokeListeners = new Set<(name: string) => void>();
  /** Names whose keychain entry revoke() is deleting: not added again until it is done. */
  private readonly revoking = new Set<string>();

  constructor(
    private readonly settings: SettingsStore,
    private readonly vault: Vault,
    private readonly logger: Logger,
  ) {}

  /** Loads every agent's token from the vault; fails loudly if the vault can't answer. */
  async load(): Promise<void> {
    this.byDigest.clear();
    this.missing.clear();
    for (const agent of this.settings.get().agents) {
      const token = await this.vault.get(vaultKey(agent.name));
      if (!token) {
        this.missing.add(agent.name);
        this.logger.warn('agent token missing from the keychain; revoke and add the agent again', {
          agent: agent.name,
        });
        continue;
      }
      this.logger.registerSecret(token);
      this.byDigest.set(digest(token), agent.name);
    }
  }

  /**
   * What a request's token is, beyond the agent's name: sessions are bound to
   * it, so a new token given the same name does not inherit the old token's
   * sessions (issue 17, item 8). The digest is not the token.
   */
  static credentialOf(token: string): string {
    // `digest` in place: the gateway calls this once per request (issue 34: one function less).
    return hash('sha256', token, 'hex');
  }

  /** Called after an agent is revoked: its sessions end and its pending requests are withdrawn. */
  onRevoked(listener: (name: string) => void): () => void {
    this.revokeListeners.add(listener);
    return () => this.revokeListeners.delete(listener);
  }

  /** `credential`: credentialOf(token), when the caller has computed it already (one hash per request). */
  authenticate(token: string, credential = digest(token)): string | null {
    const name = this.byDigest.get(credential) ?? null;
    if (name) this.lastSeen.set(name, Date.now());
    return name;
  }

  get(name: string): AgentSettings | undefined {
    // A loop, not `find` with a callback: read on every tool call (issue 34). Indexed, not
    // `for…of`: an iterator result per agent on every call (wave 3 session 32).
    const agents = this.settings.get().agents;
    for (let i = 0; i < agents.length; i++) if (agents[i]!.name === name) return agents[i];
    return undefined;
  }

  list(connected: (name: string) => boolean = () => false): AgentView[] {
    return this.settings.get().agents.map((a) => ({
      name: a.name,
      createdAt: a.createdAt,
      lastSeen: seenAt(this.lastSeen.get(a.name)),
      connected: connected(a.name),
      hasToken: !this.missing.has(a.name),
      ...(a.tools ? { tools: a.tools } : {}),
    }));
  }

  /** A known agent's token, from the vault: connecting a client writes it into that client's config (issue 15). */
  async token(name: string): Promise<string | null> {
    return this.get(name) ? this.vault.get(vaultKey(name)) : null;
  }

  async add(name: string): Promise<{ agent: AgentView; token: string }> {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (!NAME.test(trimmed)) {
      throw new ControlError(
        'INVALID',
        'Agent names are 1–40 characters: letters, digits, space, dot, dash, underscore, starting with a letter or digit.',
      );
    }
    if (this.get(trimmed))
      throw new ControlError(
        'CONFLICT',
        `An agent named "${trimmed}" already exists. Revoke it first or pick another name.`,
      );
    // Its keychain entry is still being deleted (revoke): a token stored now would be deleted
    // with it, and the new agent would find it missing at the next start.
    if (this.revoking.has(trimmed))
      throw new ControlError(
        'CONFLICT',
        `Agent "${trimmed}" is still being revoked; add it again once that is done.`,
      );
    const token = newToken('alk');
    // Vault first: if the keychain refuses, settings stay untouched.
    await this.vault.set(vaultKey(trimmed), token);
    this.settings.update((s) => {
      s.agents.push({
        name: trimmed,
        createdAt: new Date().toISOString(),
        overrides: {},
        grants: {},
      });
    });
    this.logger.registerSecret(token);
    this.byDigest.set(digest(token), trimmed);
    this.logger.info('agent added', { agent: trimmed });
    return { agent: this.list().find((a) => a.name === trimmed)!, token };
  }

  async revoke(name: string): Promise<void> {
    if (!this.get(name)) throw new ControlError('NOT_FOUND', `No agent named "${name}".`);
    // Stop accepting the token before anything else can fail.
    for (const [d, n] of this.byDigest) if (n === name) this.byDigest.delete(d);
    this.settings.update((s) => {
      s.agents = s.agents.filter((a) => a.name !== name);
    });
    // Before the vault: a keychain that fails to delete must not leave the agent's requests approvable.
    for (const listener of this.revokeListeners) {
      try {
        listener(name);
      } catch (err) {
        this.logger.error('could not end a revoked agent’s work', {
          agent: name,
          error: String(err),
        });
      }
    }
    this.revoking.add(name);
    try {
      await this.vault.delete(vaultKey(name));
    } finally {
      this.revoking.delete(name);
    }
    this.lastSeen.delete(name);
    this.missing.delete(name);
    this.logger.info('agent revoked', { agent: name });
  }

  update(name: string, change: (agent: AgentSettings) => void): void {
    if (!this.get(name)) throw new ControlError('NOT_FOUND', `No agent named "${name}".`);
    this.settings.update((s) => {
      const agent = s.agents.find((a) => a.name === name);
      if (agent) change(agent);
    });
  }
}

function seenAt(ms: number | undefined): string | null {
  return ms === undefined ? null : new Date(ms).toISOString();
}
