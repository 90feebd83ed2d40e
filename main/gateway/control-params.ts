import { ControlError, type ControlMethod } from '../../common/contract/index.js';
import {
  array,
  boolean,
  nullable,
  number,
  object,
  optional,
  parse,
  ShapeError,
  string,
  type Check,
} from '../platform/shape.js';

/**
 * The argument types of every control method, checked before the call (issue 27, item 8):
 * `listActivity({agent: {}})` reached SQLite's binder and came back as a 500. Values from
 * outside (HTTP, the local socket) are JSON of any shape; here each argument gets the type the
 * contract names — nested inputs (a decision, a remote, a settings patch) stay the method's
 * own to check in depth, and are at least objects. Filters the store binds are checked whole.
 *
 * JSON has no `undefined`: an omitted optional argument may arrive as `null`, and is passed on
 * as absent, so the method runs on exactly the values checked here.
 */
interface Param {
  check: Check<unknown>;
  optional: boolean;
}

const plainObject: Check<Record<string, unknown>> = (v, at, issues) => {
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  issues.push(`${at || '(root)'}: expected an object, got ${describe(v)}`);
  return {};
};

const req = (check: Check<unknown>): Param => ({ check, optional: false });
const opt = (check: Check<unknown>): Param => ({ check, optional: true });
const str = req(string());
const obj = req(plainObject);

/** What `ActivityLog.list` binds into its query: text, and whole numbers. */
const activityFilter = object({
  agent: optional(string()),
  tool: optional(string()),
  limit: optional(number({ int: true, min: 1 })),
  beforeId: optional(number({ int: true, min: 0 })),
});
const grantFilter = object({ agent: optional(string()), includeInactive: optional(boolean()) });
const waitMs = opt(number({ min: 0 }));
/**
 * A tool named in setAgentTools: its public name, or the name and stable key it was listed under
 * (ToolRef), which the method then holds the name to.
 */
const toolRef = object({ name: string(), key: string() });
const toolName: Check<unknown> = (v, at, issues) => {
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return toolRef(v, at, issues);
  issues.push(`${at}: expected a tool name or {name, key}, got ${describe(v)}`);
  return v;
};

/**
 * setToolPolicy's patch: the method checks its fields, but the loosening gate judges `key` before
 * the method runs (gateway/loosening.ts): one that is not text skipped that judgement and was held
 * for the user to confirm a change bound to fail. So it is text here, for every transport.
 */
const policyPatch: Check<unknown> = (v, at, issues) => {
  const patch = plainObject(v, at, issues);
  optional(string())(patch.key, at ? `${at}.key` : 'key', issues);
  return v;
};

export const CONTROL_PARAMS = {
  getStatus: [],
  setPaused: [req(boolean())],
  listPending: [],
  getApproval: [str],
  decide: [str, obj],
  listGrants: [opt(grantFilter)],
  revokeGrant: [str],
  listTools: [opt(string())],
  setToolPolicy: [str, req(policyPatch)],
  listAgents: [],
  addAgent: [str],
  revokeAgent: [str],
  setAgentTools: [str, req(nullable(array(toolName)))],
  listActivity: [opt(activityFilter)],
  getSettings: [],
  updateSettings: [obj],
  listRemotes: [],
  addRemote: [obj],
  updateRemote: [str, obj],
  removeRemote: [str],
  refreshRemote: [opt(string())],
  testRemote: [obj],
  getGoogleClient: [],
  setGoogleClient: [obj],
  listGoogleAccounts: [],
  startGoogleConnect: [opt(plainObject)],
  waitGoogleConnect: [str, waitMs],
  cancelGoogleConnect: [str],
  disconnectGoogle: [str],
  setDefaultGoogleAccount: [str],
  loginRemote: [str, opt(plainObject)],
  waitRemoteLogin: [str, waitMs],
  cancelRemoteLogin: [str],
  logoutRemote: [str],
  listClients: [opt(string())],
  importClients: [opt(plainObject)],
  connectClient: [str, opt(plainObject)],
  listPolicyChanges: [],
  decidePolicyChange: [str, req(boolean())],
  waitPolicyChange: [str],
} satisfies Record<ControlMethod, Param[]>;

/**
 * The arguments as the method will get them, or a ControlError INVALID naming each problem
 * ("listActivity: argument 1 agent: expected a string, got an object").
 */
export function checkControlParams(method: ControlMethod, params: unknown[]): unknown[] {
  const spec: Param[] = CONTROL_PARAMS[method];
  if (params.length > spec.length)
    throw new ControlError(
      'INVALID',
      `${method} takes ${spec.length === 0 ? 'no arguments' : `at most ${spec.length} argument${spec.length === 1 ? '' : 's'}`}; got ${params.length}.`,
    );
  const out: unknown[] = [];
  const issues: string[] = [];
  spec.forEach((p, i) => {
    const v = params[i];
    if ((v === undefined || v === null) && p.optional) {
      out.push(undefined);
      return;
    }
    try {
      out.push(parse(p.check, v));
    } catch (err) {
      if (!(err instanceof ShapeError)) throw err;
      for (const issue of err.issues)
        issues.push(
          `argument ${i + 1}${issue.startsWith('(root)') ? issue.slice(6) : ` ${issue}`}`,
        );
    }
  });
  if (issues.length)
    throw new ControlError(
      'INVALID',
      `${method}: ${issues.slice(0, 5).join('; ')}${issues.length > 5 ? ` (and ${issues.length - 5} more)` : ''}.`,
    );
  // Trailing absent arguments are left off, as the typed clients send them.
  while (out.length > 0 && out[out.length - 1] === undefined) out.pop();
  return out;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'string' ? 'a string' : String(v);
}
