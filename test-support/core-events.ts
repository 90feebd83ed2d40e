import type { ApprovalView, CoreEvent } from '../common/contract/index.js';

/**
 * Waiting on the core's events instead of on a clock (issue 29 item 2): subscribe before causing
 * the event, then await it. Takes anything with the App's `events` (an App, or a test's stand-in).
 */
export interface HasCoreEvents {
  events: { subscribe: (listener: (e: CoreEvent) => void) => () => void };
}

/** An approval request the core announced. */
export type ApprovalRequested = Extract<CoreEvent, { type: 'approval.requested' }>;

export const isRequested = (e: CoreEvent): e is ApprovalRequested =>
  e.type === 'approval.requested';

/** Resolves with the first core event that satisfies `match` (subscribe before causing it). */
export function nextEvent<T extends CoreEvent>(
  app: HasCoreEvents,
  match: (e: CoreEvent) => e is T,
): Promise<T>;
export function nextEvent(app: HasCoreEvents, match: (e: CoreEvent) => boolean): Promise<CoreEvent>;
export function nextEvent(
  app: HasCoreEvents,
  match: (e: CoreEvent) => boolean,
): Promise<CoreEvent> {
  return new Promise((resolve) => {
    const off = app.events.subscribe((e) => {
      if (match(e)) {
        off();
        resolve(e);
      }
    });
  });
}

/**
 * Resolves with the next approval request the core announces (subscribe before causing it);
 * `match` picks one request among others (an agent's, a tool's).
 */
export function nextRequest(
  app: HasCoreEvents,
  match: (approval: ApprovalView) => boolean = () => true,
): Promise<ApprovalView> {
  return new Promise((resolve) => {
    const off = app.events.subscribe((e) => {
      if (e.type === 'approval.requested' && match(e.approval)) {
        off();
        resolve(e.approval);
      }
    });
  });
}
