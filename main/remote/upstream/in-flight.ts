import { AnswerRefused } from './answer-refused.js';

/**
 * One budget for the text of every upstream message being read at once, across all servers and
 * both legs: JSON answers (lean-fetch.ts), events of event streams (lean-transport.ts) and stdio
 * lines (line-reader.ts). One message is bounded on its own (64 MiB; 10 MB a stdio line; its
 * values by json-values.ts), but not how many are read at once: five hostile servers answering
 * 64 MiB each would hold 320 MiB of text, and more servers more.
 *
 * A message holds its text from its first character until it has been parsed and handed over
 * (or dropped). A message whose text would take the total past UPSTREAM_IN_FLIGHT_LIMIT is
 * refused at once with an error naming the budget — never left waiting for room, which a stalled
 * server could withhold for ever — and its text is let go. Messages of up to ALWAYS_ADMITTED
 * count towards the total but are never refused for it: a server holding the budget with large
 * answers can fail other servers' large answers, not their ordinary traffic.
 *
 * Parsing happens one message at a time (JavaScript runs one thing at a time), so what parsing
 * builds adds at most one message's values (json-values.ts) to this.
 */
export const UPSTREAM_IN_FLIGHT_LIMIT = 256 * 1024 * 1024;

/** Messages up to this size are counted but never refused for the budget. */
export const ALWAYS_ADMITTED = 1024 * 1024;

let total = 0;
let peak = 0;

/** The text (characters; bytes on the stdio leg) of upstream messages held now. */
export function upstreamInFlight(): { now: number; peak: number } {
  return { now: total, peak };
}

/** Test support: forgets the high-water mark. */
export function resetInFlightPeak(): void {
  peak = total;
}

/** The budget share of one message (or of one event stream's unfinished event). */
export class InFlight {
  private held = 0;

  /**
   * Sets what this message holds to `n`. Growing past ALWAYS_ADMITTED when the total would pass
   * the budget is refused: the error is returned, nothing is taken, and the caller drops the
   * message (and `release`s what it held).
   */
  hold(n: number): Error | undefined {
    const next = total - this.held + n;
    if (n > this.held && n > ALWAYS_ADMITTED && next > UPSTREAM_IN_FLIGHT_LIMIT)
      return overBudget(total - this.held, n);
    total = next;
    this.held = n;
    if (total > peak) peak = total;
    return undefined;
  }

  release(): void {
    total -= this.held;
    this.held = 0;
  }
}

function overBudget(others: number, n: number): Error {
  return new AnswerRefused(
    `Airlock is already reading ${mib(others)} of answers from servers, and this message (${mib(n)} so far) would take that past its limit of ${mib(UPSTREAM_IN_FLIGHT_LIMIT)} for answers being read at once; Airlock stopped reading it`,
  );
}

const mib = (n: number) => `${Math.round(n / (1024 * 1024))} MiB`;
