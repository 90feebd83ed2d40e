import {
  createParser,
  type EventSourceMessage,
  type EventSourceParser,
  type ParserCallbacks,
} from 'eventsource-parser';

const LF = 10;
const SPACE = 32;

/**
 * The events of a piece of an event stream that holds whole events only, as eventsource-parser
 * would hand them to `onEvent` from a parser that had not been fed yet or had ended on an event's
 * end; undefined for any other piece (the parser's to read). Issue 34, wave 3 session 29: an
 * upstream's answer to a call usually comes as one piece of one or two whole events
 * (`event: message`, maybe an `id:`, one `data:` line, a blank line), and the parser spent seven
 * functions on it per call (createParser, feed, checkBufferSize, processLines, parseLine,
 * isDataPrefix, isEventPrefix); direct-events.ts makes a parser only for a piece this does not
 * take, so a stream read piece by piece is the parser's from there on, exactly as before.
 *
 * Taken: a piece without CR whose every line is `data:`, `event:` or `id:` (the names as the
 * parser matches them: lower case, the colon right after) or blank, that ends with a blank line.
 * Their rules are the parser's (eventsource-parser 3.1.1 `processLines`, `parseLine`): one space
 * after the colon dropped, `data:` lines joined with LF, an empty `event:` is none, an id holding
 * NUL ignored, a blank line ends the event — dispatched if it had data — and forgets its id, name
 * and data. So after such a piece a parser is where a fresh one is, but for its first-piece check
 * (a leading `ï»¿` dropped), which direct-events.ts turns off by feeding a late parser an empty
 * piece first. A piece with anything else — a comment, `retry:`, another field, a CR, a line or
 * event left open, that first-piece mark — is left to the parser whole.
 * plain-events.property.test.ts holds this equal to eventsource-parser over generated pieces and
 * the state it leaves; sdk-reader.property.test.ts holds the reader equal to the stock SDK's.
 */
export function wholeEvents(text: string): EventSourceMessage[] | undefined {
  const n = text.length;
  if (n < 2 || text.charCodeAt(n - 1) !== LF || text.charCodeAt(n - 2) !== LF) return undefined;
  if (text.indexOf('\r') !== -1) return undefined;
  const out: EventSourceMessage[] = [];
  let id: string | undefined;
  let event: string | undefined;
  let data = '';
  let lines = 0;
  for (let at = 0; at < n;) {
    const end = text.indexOf('\n', at);
    if (end === at) {
      if (lines > 0) out.push({ id, event, data });
      id = undefined;
      event = undefined;
      data = '';
      lines = 0;
    } else if (text.startsWith('data:', at)) {
      const value = text.slice(text.charCodeAt(at + 5) === SPACE ? at + 6 : at + 5, end);
      data = lines === 0 ? value : `${data}\n${value}`;
      lines++;
    } else if (text.startsWith('event:', at)) {
      event = text.slice(text.charCodeAt(at + 6) === SPACE ? at + 7 : at + 6, end) || undefined;
    } else if (text.startsWith('id:', at)) {
      const value = text.slice(text.charCodeAt(at + 3) === SPACE ? at + 4 : at + 3, end);
      if (!value.includes('\0')) id = value;
    } else return undefined;
    at = end + 1;
  }
  return out;
}

/**
 * The parser for a stream's first piece `wholeEvents` did not take, with `callbacks` (its
 * `onEvent` the one whole events went to). Where whole events were read before (`fedBefore`) it
 * is fed an empty piece first: a parser drops a leading `ï»¿` from the first piece it is fed
 * (eventsource-parser 3.1.1 `feed`, `isFirstChunk`), which a parser made at the stream's start
 * would not do to a later piece.
 */
export function lateParser(
  callbacks: ParserCallbacks & { maxBufferSize?: number },
  fedBefore: boolean,
): EventSourceParser {
  const parser = createParser(callbacks);
  if (fedBefore) parser.feed('');
  return parser;
}
