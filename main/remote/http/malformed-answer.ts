import { codeUnits, textPrefix } from '../../../common/text-cut.js';
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { MALFORMED_ANSWER, MALFORMED_ANSWER_MARK } from './lean-transport.js';

/**
 * What is wrong with an answer that is not a valid MCP result, or undefined for other failures:
 * the upstream leg's shape check (upstream-client.ts), or the SDK's zod check of the JSON-RPC
 * envelope (a ZodError, whose own text is a JSON dump of issues).
 */
export function malformedAnswer(err: unknown): string | undefined {
  if (err instanceof SdkError && err.code === SdkErrorCode.InvalidResult)
    return textPrefix(err.message, 300, codeUnits);
  if (
    err instanceof ProtocolError &&
    (err.data as Record<string, unknown> | undefined)?.[MALFORMED_ANSWER] === MALFORMED_ANSWER_MARK
  )
    return textPrefix(err.message, 300, codeUnits);
  if (err instanceof Error && /ZodError/.test(err.name)) {
    const issues = (err as Error & { issues?: { path?: unknown[]; message?: string }[] }).issues;
    const first = issues?.[0];
    return first
      ? `${(first.path ?? []).join('.') || 'the message'}: ${first.message ?? 'invalid'}`.slice(
          0,
          300,
        )
      : 'not a valid JSON-RPC message';
  }
  return undefined;
}
