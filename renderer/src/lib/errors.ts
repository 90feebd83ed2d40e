import { ControlError } from '../../../common/contract';

/** Error codes the transport may carry beyond ControlErrorCode (HTTP guard answers). */
export function errorCode(err: unknown): string {
  return err instanceof ControlError ? err.code : 'INTERNAL';
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
