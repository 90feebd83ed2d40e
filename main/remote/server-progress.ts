import { codeUnits, textPrefix } from '../../common/text-cut.js';
import { relayLabel, serverWords } from '../tools/relay-label.js';
import type { ProgressSink } from '../tools/types.js';
import { noticeMeta } from '../tools/untrusted.js';

/**
 * The most of a server's progress message one notification carries to the agent, in characters
 * (UTF-16 units, as a result's cap counts). The least a result may be cut to
 * (settings.limits.resultChars, at least 1,000): one progress notification never carries more of
 * the server's words than a whole result could, and a server sending many cannot flood the agent's
 * context a megabyte at a time. Cut by the cutter of all shown text (common/text-cut.ts textPrefix, in UTF-16 units as results are).
 */
export const PROGRESS_MESSAGE_CHARS = 1_000;

/** What the SDK hands `onprogress`: the notification's params but its progressToken. */
type UpstreamProgress = {
  progress: number;
  total?: number;
  message?: string;
  _meta?: unknown;
};

/**
 * The SDK `onprogress` that passes a server's progress on one request to the agent
 * (basic/utilities/progress): every notification, `progress`, `total`, `message` and `_meta` kept,
 * in order. Progress only grows (the spec's MUST), per agent request — across a request made again
 * upstream too — so a value that does not grow is left out; where the agent's request changes
 * during the call (a 2026-07-28 input round: its retry has a progressToken of its own,
 * ProgressSink.request) the new request's values start afresh. The message is the server's words:
 * redacted as its answer is (redact.ts), cut to PROGRESS_MESSAGE_CHARS (after redaction: a cut
 * made first could leave most of a secret that redaction no longer recognises), and labelled as a
 * relayed request is (relay-label.ts), since Airlock's own progress on a call says "Waiting for
 * approval in Airlock", which a server could copy. `_meta` is filtered as a result's is
 * (untrusted.ts noticeMeta) and redacted.
 */
export function serverProgress(
  label: string,
  redact: { text: (text: string) => string; value: <T extends object>(x: T) => T },
  sink: ProgressSink,
): (p: UpstreamProgress) => void {
  let last = -Infinity;
  let request = sink.request?.();
  return (p) => {
    if (sdkRoundStep(p)) return;
    const now = sink.request?.();
    if (now !== request) {
      request = now;
      last = -Infinity;
    }
    if (p.progress <= last) return;
    last = p.progress;
    const said =
      p.message === undefined ? undefined : progressMessage(label, redact.text(p.message));
    const filtered = noticeMeta(p._meta);
    const meta = filtered && redact.value(filtered);
    sink(p.progress, p.total, said, meta);
  };
}

/**
 * The client SDK's own step of an input round it fulfils for Airlock (runInputRequiredDriver,
 * @modelcontextprotocol/client: `onprogress({ progress: round, message: "Fulfilling input required
 * by '<method>' (round <round>)" })`, handed to the same `onprogress` as the server's). It is no
 * word of the server's, so it must not go out under the server's label; nor Airlock's own to the
 * agent, which sees the round itself (the relayed request, or input_required). Its value is the
 * round number, not the server's count: taken as progress, a server counting 0..1 had every step
 * after the round left out as not growing. Told apart by its exact shape; a server sending the
 * same loses that one step, nothing else.
 */
function sdkRoundStep(p: UpstreamProgress): boolean {
  if (p.message === undefined || p.total !== undefined || p._meta !== undefined) return false;
  const m = SDK_ROUND_STEP.exec(p.message);
  return m !== null && Number(m[1]) === p.progress;
}

const SDK_ROUND_STEP = /^Fulfilling input required by '[^']*' \(round (\d+)\)$/;

/** A redacted progress message as the agent gets it: cut, then labelled as the server's words. */
export function progressMessage(label: string, message: string): string {
  const kept = textPrefix(message, PROGRESS_MESSAGE_CHARS, codeUnits);
  const cut = message.length - kept.length;
  const note = cut
    ? ` [Airlock cut ${cut} characters from this progress message to stay within ${PROGRESS_MESSAGE_CHARS} characters.]`
    : '';
  return `${relayLabel(label)} ${serverWords(kept)}`.trimEnd() + note;
}
