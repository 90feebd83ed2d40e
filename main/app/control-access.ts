import { newToken } from '../agents/agent-service.js';
import type { ApprovalEngine } from '../approvals/engine.js';
import type { GrantService } from '../approvals/grants.js';
import { LooseningGate } from '../gateway/loosening-gate.js';
import type { ServerLoosening } from '../gateway/loosening.js';
import type { PolicyChanges } from '../gateway/policy-changes.js';
import type { OpenCodes } from '../gateway/control-open-codes.js';
import { ControlSocket, controlSocketPath } from '../gateway/control-socket.js';
import type { Logger } from '../platform/log.js';
import type { Vault } from '../platform/vault/vault.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ControlService } from './control-service.js';

const CONTROL_TOKEN_KEY = 'control-token';

/** The profile's control token, made on first start; registered so the log never shows it. */
export async function loadControlToken(vault: Vault, logger: Logger): Promise<string> {
  let token = await vault.get(CONTROL_TOKEN_KEY);
  if (!token) {
    token = newToken('alc');
    await vault.set(CONTROL_TOKEN_KEY, token);
  }
  logger.registerSecret(token);
  return token;
}

/** Reads the control token of a profile (for the CLI talking to a running server). */
export async function readControlToken(vault: Vault): Promise<string | null> {
  return vault.get(CONTROL_TOKEN_KEY);
}

/**
 * The CLI's keychain-free way in (issue 19); without it the CLI falls back to HTTP + token.
 * Null (logged) when the socket cannot be started.
 */
export async function startControlSocket(o: {
  api: ControlService;
  logger: Logger;
  controlToken: string;
  gate: LooseningGate | null;
  dataDir: string;
  openCodes: OpenCodes;
}): Promise<{ socket: ControlSocket; path: string } | null> {
  const socket = new ControlSocket({
    api: o.api,
    logger: o.logger,
    controlToken: o.controlToken,
    openCodes: o.openCodes,
    ...(o.gate ? { gate: o.gate } : {}),
  });
  try {
    const path = await socket.start(controlSocketPath(o.dataDir));
    return { socket, path };
  } catch (err) {
    o.logger.warn('control socket not started; the CLI will use HTTP and the vault', {
      error: err instanceof Error ? err.message : String(err),
    });
    return null;
  }
}

/** Issue 17.7: one gate for every control transport (HTTP and the local socket). */
export function newLooseningGate(o: {
  api: ControlService;
  policyChanges: PolicyChanges;
  registry: ToolRegistry;
  grants: GrantService;
  /** Whose tool a request is for (ApprovalEngine.toolKeyOf). */
  approvals: Pick<ApprovalEngine, 'toolKeyOf' | 'assertGrantable'>;
  /** The remote source's judgement of server changes (remote/remote-loosening.ts). */
  servers: ServerLoosening;
}): LooseningGate {
  const { registry, grants, approvals } = o;
  return new LooseningGate({
    api: o.api,
    policyChanges: o.policyChanges,
    servers: o.servers,
    toolIdentity: (name) => {
      const e = registry.get(name);
      // As a grant is bound to its server (approvals/policy.ts): the key and whom the tool reaches.
      return e && JSON.stringify([e.key, e.source.identity?.() ?? null]);
    },
    grant: (view, decision) => {
      // The request's tool, by its key, as an "always allow" decided in the window grants it
      // (approvals/decisions.ts): the user confirms this up to ten minutes on, and by then its
      // public name may name another tool (loosening-rename.security.test.ts).
      const key = approvals.toolKeyOf(view.id);
      // On the tool the card showed, as in the window (shown-binding.ts): a server that relisted
      // it while the grant waited (a new description, title or hints) gets no grant on words the
      // user never saw. Checked and made in one synchronous stretch.
      approvals.assertGrantable(view.id);
      const e = registry.getByKey(key);
      if (!e) throw new Error(`${view.tool} is no longer available.`);
      grants.create({
        agent: view.agent,
        toolKey: e.key,
        tool: view.tool,
        args: view.arguments,
        ...(decision.hours !== undefined ? { hours: decision.hours } : {}),
        ...(decision.until !== undefined ? { until: decision.until } : {}),
        ...(decision.constraint !== undefined ? { constraint: decision.constraint } : {}),
        // What the user confirmed (loosening-gate.ts names it), as approvals/decisions.ts keeps it.
        ...(decision.includeTainted === true ? { includeTainted: true } : {}),
        approvalId: view.id,
      });
    },
  });
}
