const LF = 10;
const CR = 13;

/**
 * How much of an event stream an `eventsource-parser` may still hold: the characters fed since the
 * last blank line (an event's end), counted from the second line ending of the pair so as never to
 * count less than the parser holds (its unfinished line and its event's data lines, which is what
 * its own `maxBufferSize` bounds). Not exact — lines that are not data (ids, comments) count too —
 * but an upper bound, which is what the in-flight budget needs (upstream/in-flight.ts);
 * unfinished-event.property.test.ts holds the parser to it over generated streams and cuts.
 *
 * A blank line is two line endings in a row, where CR LF is one ending: LF LF, CR CR or LF CR
 * (HTML Living Standard, "Interpreting an event stream"), also across two pieces.
 */
export class Unfinished {
  held = 0;
  /** The last character fed (-1 before any). */
  private last = -1;
  /** The last piece ended in a CR that ends a blank line: the parser waits to see if LF follows. */
  private blankAtEnd = false;

  /**
   * What is held after pieces of whole events only (plain-events.ts `wholeEvents`: no CR, the
   * last two characters LF LF): the last LF, counted from the second ending of the pair.
   */
  static readonly AFTER_WHOLE = 1;

  /**
   * `afterWhole`: as one fed pieces of whole events only and nothing else — what `after` leaves
   * then, whatever they were (held AFTER_WHOLE, the last character LF, no CR pending), so
   * direct-events.ts makes one only for the first piece that is not (issue 34: three functions
   * per call). unfinished-event.property.test.ts holds the two equal over generated pieces.
   */
  constructor(afterWhole = false) {
    if (!afterWhole) return;
    this.held = Unfinished.AFTER_WHOLE;
    this.last = LF;
  }

  /** Feeds `chunk`; what may be held after it. */
  after(chunk: string): number {
    const len = chunk.length;
    if (len === 0) return this.held;
    // A CR at the very end is not acted on by the parser until the next character comes (it may
    // be a CR LF), so a blank line it would end has not ended yet.
    const cr = chunk.charCodeAt(len - 1) === CR;
    const body = cr ? chunk.slice(0, -1) : chunk;
    const p = this.blankAtEnd ? 0 : lastBlankLine(body, this.last);
    this.held = p < 0 ? this.held + len : len - p;
    const before = len > 1 ? chunk.charCodeAt(len - 2) : this.last;
    this.blankAtEnd = cr && (before === LF || before === CR);
    this.last = chunk.charCodeAt(len - 1);
    return this.held;
  }
}

/** Where the second ending of the last blank line in `chunk` starts, or -1 if it has none. */
function lastBlankLine(chunk: string, before: number): number {
  let p = chunk.lastIndexOf('\n\n');
  // Usually no CR at all: the second and third searches only when one follows the LF LF.
  if (chunk.indexOf('\r', p + 1) !== -1)
    p = Math.max(p, chunk.lastIndexOf('\r\r'), chunk.lastIndexOf('\n\r'));
  if (p >= 0) return p + 1;
  if (chunk.length === 0) return -1;
  const first = chunk.charCodeAt(0);
  if ((before === LF && (first === LF || first === CR)) || (before === CR && first === CR))
    return 0;
  return -1;
}
