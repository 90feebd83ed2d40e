import type { ApprovalView, Decision, GrantView } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { ControlServiceDeps } from './control-deps.js';

/** Approval requests and standing grants (ControlApi's approvals domain). */
export class ApprovalsControl {
  constructor(private readonly d: ControlServiceDeps) {}

  async listPending(): Promise<ApprovalView[]> {
    return this.d.approvals.listPending();
  }

  async getApproval(id: string): Promise<ApprovalView> {
    return this.d.approvals.get(id);
  }

  async decide(id: string, decision: Decision): Promise<ApprovalView> {
    if (
      !decision ||
      typeof decision !== 'object' ||
      !['deny', 'allow_once', 'allow_edited', 'always_allow'].includes(decision.kind)
    ) {
      throw new ControlError(
        'INVALID',
        'decision.kind must be deny, allow_once, allow_edited or always_allow.',
      );
    }
    return this.d.approvals.decide(id, decision);
  }

  async listGrants(filter?: { agent?: string; includeInactive?: boolean }): Promise<GrantView[]> {
    return this.d.grants.list(filter ?? {});
  }

  async revokeGrant(id: string): Promise<GrantView> {
    return this.d.grants.revoke(id);
  }
}
