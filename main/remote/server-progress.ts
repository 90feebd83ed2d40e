import { relayLabel, serverWords } from '../tools/relay-label.js';
import type { ToolCallContext } from '../tools/types.js';

type Sink = NonNullable<ToolCallContext['progress']>;

/**
 * The SDK `onprogress` that passes a server's progress on one request to the agent
 * (basic/utilities/progress): every notification, `progress`, `total` and `message` kept, in
 * order. Progress only grows (the spec's MUST), also across a request made again, so a value that
 * does not grow is left out. The message is the server's words: redacted as its answer is
 * (redact.ts) and labelled as a relayed request is (relay-label.ts), since Airlock's own progress
 * on a call says "Waiting for approval in Airlock", which a server could copy.
 */
export function serverProgress(
  label: string,
  redact: (text: string) => string,
  sink: Sink,
): (p: { progress: number; total?: number; message?: string }) => void {
  let last = -Infinity;
  return (p) => {
    if (p.progress <= last) return;
    last = p.progress;
    const said =
      p.message === undefined
        ? undefined
        : `${relayLabel(label)} ${serverWords(redact(p.message))}`.trimEnd();
    sink(p.progress, p.total, said);
  };
}
