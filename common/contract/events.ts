import type { ActivityView } from './activity.js';
import type { ApprovalView } from './approvals.js';
import type { GoogleConnectView } from './google.js';
import type { PolicyChangeView } from './policy.js';
import type { RemoteLoginView } from './servers.js';

/** What the core tells every UI as it happens (SSE `GET /api/events`, IPC `airlock:event`). */
export type CoreEvent =
  | { type: 'approval.requested'; approval: ApprovalView }
  | { type: 'approval.updated'; approval: ApprovalView }
  | { type: 'activity.added'; activity: ActivityView }
  /** A call's row moved along (approved, ran, failed…; issue 16 item 5). */
  | { type: 'activity.updated'; activity: ActivityView }
  | { type: 'state.changed' }
  | { type: 'tools.changed' }
  | { type: 'google.connect'; flow: GoogleConnectView }
  | { type: 'remote.login'; flow: RemoteLoginView }
  | { type: 'policy.change'; change: PolicyChangeView };
