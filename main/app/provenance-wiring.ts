import type { GoogleService } from '../google/google-service.js';
import type { CoreEvents } from '../platform/events.js';
import { KnownParties } from '../provenance/known-parties.js';
import { ProvenanceService } from '../provenance/provenance-service.js';
import type { Db } from '../store/db.js';
import { KnownPartyStore } from '../store/known-party-store.js';
import type { AppOptions } from './app-options.js';

/**
 * The taint check (issue 22, docs/provenance.md): the user's circle is their Google accounts
 * (and organisation domain) plus every destination they approved a call to, kept in the
 * database; approvals the user gives teach it. Its subscriptions' ends go into `offs`.
 */
export function startProvenance(
  app: { readonly google: GoogleService; readonly events: CoreEvents },
  options: AppOptions,
  db: Db,
  offs: (() => void)[],
  /** The input schema of a tool by its public name: formats say where values go (issue 30). */
  schemaOf: (tool: string) => Record<string, unknown> | undefined = () => undefined,
  /**
   * The arguments that name where a call sends, when its tool says they are not all of them
   * (ToolSource.argsReach: a filter's forward_to, not its criteria), else undefined.
   */
  reachOf: (
    tool: string,
    args: Record<string, unknown>,
  ) => Record<string, unknown> | undefined = () => undefined,
): ProvenanceService {
  const store = new KnownPartyStore(db);
  const known = new KnownParties((kind, value) => store.add(kind, value));
  for (const k of store.all()) known.seed(k.kind, k.value);
  const provenance = new ProvenanceService({ known });
  const own = () => {
    for (const a of app.google.accounts.accounts()) known.addOwnAccount(a.email);
    for (const a of options.ownAddresses ?? []) known.addOwnAccount(a);
  };
  own();
  offs.push(app.google.accounts.onChange(own));
  offs.push(
    app.events.subscribe((e) => {
      // Learned once the user said yes (learning twice is a no-op).
      if (e.type !== 'approval.updated' || e.approval.state === 'pending') return;
      if (e.approval.decisionKind !== 'once' && e.approval.decisionKind !== 'edited') return;
      // Only where the call sends: a yes to a filter on a stranger's `from` puts no one in the
      // circle, so a later send to that address is still judged by where it came from.
      const args = e.approval.editedArguments ?? e.approval.arguments;
      provenance.learnFrom(reachOf(e.approval.tool, args) ?? args, schemaOf(e.approval.tool));
    }),
  );
  return provenance;
}
