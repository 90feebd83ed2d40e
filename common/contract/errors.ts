/** Errors every ControlApi transport carries unchanged (HTTP JSON body, IPC `[airlock:CODE]` prefix). */

/** Error codes a ControlApi call can fail with; transports carry them unchanged. */
export type ControlErrorCode =
  | 'NOT_FOUND'
  | 'INVALID'
  | 'CONFLICT'
  | 'CONFIRM_REQUIRED'
  /** A loosening change now waits for the user's confirmation in Airlock's window (PolicyApi). */
  | 'CONFIRM_IN_WINDOW'
  /** Refused to this caller (e.g. confirming a policy change from outside the window). */
  | 'FORBIDDEN'
  | 'KEYCHAIN_UNAVAILABLE'
  | 'VAULT_LOCKED'
  | 'INTERNAL';

export class ControlError extends Error {
  readonly code: ControlErrorCode;
  constructor(code: ControlErrorCode, message: string) {
    super(message);
    this.name = 'ControlError';
    this.code = code;
  }
}
