import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import type { EventSourceMessage, EventSourceParser } from 'eventsource-parser';
import {
  terminated,
  UPSTREAM_MESSAGE_LIMIT,
  upstreamMessageTooLarge,
  leadingBoms,
  SSE_BOMS,
} from './lean-fetch.js';
import { answerId, jsonRpcMessage, malformedAnswerError } from './lean-transport.js';
import type { SendInternals } from './lean-send.js';
import { lateParser, wholeEvents } from './plain-events.js';
import { Unfinished } from './unfinished-event.js';
import { relayScopeRunner } from '../relay/relay-scope.js';
import { InFlight } from '../upstream/in-flight.js';
import { parseUpstream, UpstreamValuesError } from '../upstream/json-values.js';

/** The members of the SDK transport a POST's event stream touches once it has ended unanswered. */
interface StreamInternals extends SendInternals {
  _abortController?: AbortController;
  _serverRetryMs?: number;
  _scheduleReconnection(options: object, attempt: number): void;
}

/**
 * A direct call's answer as an event stream (200, `text/event-stream` with any parameters, not
 * compressed: server-everything and most SDK servers answer a POST so), read from the socket's
 * `data` as lean-transport.ts `readStream` reads it from a LeanBody that lean-send's `answered`
 * gets from a LeanResponse (wave 3 session 23): the same `eventsource-parser`, fed the same text
 * (save a piece of whole events only, read by plain-events.ts `wholeEvents` to the parser's rules
 * before any parser is made, wave 3 session 29) — so the line endings (CR LF, LF, CR, also a
 * CR LF split across two pieces), `data:` lines joined, the space after a colon, comments, `retry:`, `event:` names (only `message` or none is a
 * message), ids and an unfinished event at the end are its rules exactly, not copies of them; the
 * text fed is LeanBody.read's, a leading BOM dropped as there (lean-fetch.ts `leadingBoms`). A
 * change to `readStream`'s rules, or to LeanBody.read's decoding, is made here too (and
 * lean-transport.ts points back here); sdk-reader.property.test.ts holds all three readers equal
 * to the stock SDK client's over generated bodies. What `readStream` does with each event and with
 * the end is repeated here step for step, for the options lean-send gives a POST's stream (no
 * resumption callback, no replayed id, not reconnectable unless primed by an id): each message
 * bounded and checked (`parseUpstream`, `jsonRpcMessage`), delivered in the call's relay scope and
 * in order, a malformed answer failing its call (MALFORMED_ANSWER), one event bounded by
 * UPSTREAM_MESSAGE_LIMIT and the unfinished event's share of the in-flight budget held as it is
 * (unfinished-event.ts), a stream that ends or is cut before the answer reported (`onerror`, then
 * the call's stream-lost callback). The unusual ends go where today's do: a `retry:` sets the
 * transport's `_serverRetryMs` as the stock reader's `onRetry`, and a stream primed by an event id
 * that ends unanswered is handed to the SDK's own `_scheduleReconnection` — the resumed GET is
 * today's path from there on. direct-call.property.test.ts runs both readers against the same
 * generated streams.
 */
export function readEvents(
  transport: SendInternals,
  res: IncomingMessage,
  done: () => void,
  lost: ((err: unknown) => void) | undefined,
): void {
  const t = transport as StreamInternals;
  // Messages go over in the relay scope of the call that opened the stream (relay-scope.ts).
  const inScope = relayScopeRunner();
  let lastEventId: string | undefined;
  let primed = false;
  let answered = false;
  let over = false;
  let tooLarge: Error | undefined;
  let utf8: StringDecoder | undefined;
  const inFlight = new InFlight();
  // Made with the parser, for the first piece that is not whole events (Unfinished's `afterWhole`).
  let pending: Unfinished | undefined;
  const cut = (reason: Error) => {
    res.destroy();
    finish(terminated(reason));
  };
  const onEvent = (event: EventSourceMessage) => {
    if (event.id) {
      lastEventId = event.id;
      primed = true;
    }
    if (!event.data || (event.event && event.event !== 'message')) return;
    let raw: unknown;
    try {
      raw = parseUpstream(event.data);
      const message = jsonRpcMessage(raw);
      if ('id' in message && ('result' in message || 'error' in message)) answered = true;
      inScope(() => t.onmessage?.(message));
    } catch (err) {
      if (err instanceof UpstreamValuesError) {
        tooLarge = err;
        return cut(err);
      }
      t.onerror?.(err as Error);
      const id = answerId(raw);
      if (id !== undefined) {
        answered = true;
        const answer = malformedAnswerError(id, (err as Error).message);
        inScope(() => t.onmessage?.(answer));
      }
    }
  };
  // Made for the first piece that is not whole events only (plain-events.ts), with the handler
  // above: the usual answer, one piece of whole events, is read without one.
  let parser: EventSourceParser | undefined;
  /** Whether whole events were read before the parser was made (its first-piece check is over). */
  let fedBefore = false;
  const parserNow = (): EventSourceParser =>
    (parser = lateParser(
      {
        maxBufferSize: UPSTREAM_MESSAGE_LIMIT,
        onError(err) {
          if (err.type !== 'max-buffer-size-exceeded') return;
          tooLarge = upstreamMessageTooLarge();
          cut(tooLarge);
        },
        onEvent,
        onRetry(ms) {
          t._serverRetryMs = ms;
        },
      },
      fedBefore,
    ));
  // Once, when the body ended (`ended` undefined) or was cut.
  const finish = (ended: unknown) => {
    if (over) return;
    over = true;
    done();
    inFlight.release();
    // Ended on purpose (the transport closed): nothing to report.
    if (t._abortController?.signal.aborted === true) return;
    const why = tooLarge ?? ended;
    if (why !== undefined) {
      t.onerror?.(new Error(`SSE stream disconnected: ${String(why)}`));
      if (!answered) lost?.(why);
    }
    // Not after a message over a bound: a resumed stream would replay it (lean-transport.ts).
    if (!tooLarge && primed && !answered && t._abortController)
      t._scheduleReconnection(
        {
          resumptionToken: lastEventId,
          onresumptiontoken: undefined,
          replayMessageId: undefined,
          requestSignal: undefined,
          onRequestStreamEnd: undefined,
        },
        0,
      );
  };
  const read = (text: string) => {
    if (tooLarge) return;
    const before = pending?.held ?? (fedBefore ? Unfinished.AFTER_WHOLE : 0);
    const held = inFlight.hold(before + text.length);
    if (held) {
      tooLarge = held;
      return cut(held);
    }
    const whole = parser === undefined ? wholeEvents(text) : undefined;
    if (whole === undefined) {
      pending ??= new Unfinished(fedBefore);
      (parser ?? parserNow()).feed(text);
      if (!tooLarge) inFlight.hold(pending.after(text));
    } else {
      fedBefore = true;
      for (let i = 0; i < whole.length; i++) onEvent(whole[i]!);
      if (!tooLarge) inFlight.hold(Unfinished.AFTER_WHOLE);
    }
  };
  // The text LeanBody.read gives, piece for piece (a StringDecoder only from the first piece that
  // ends mid-sequence), and nothing after the end or a cut; leading BOMs dropped as it drops them
  // (lean-fetch.ts `leadingBoms`: the SDK's TextDecoderStream drops one),
  // inline rather than by a closure per body.
  let boms = SSE_BOMS;
  res.on('data', (buf: Buffer) => {
    if (over) return;
    let text: string;
    if (utf8 === undefined && (buf.length === 0 || buf[buf.length - 1]! < 0x80))
      text = buf.toString('utf8');
    else text = (utf8 ??= new StringDecoder('utf8')).write(buf);
    if (text.length === 0) return;
    if (boms > 0) {
      const k = leadingBoms(text, boms);
      if (k === text.length) return void (boms -= k);
      boms = 0;
      if (k > 0) text = text.slice(k);
    }
    read(text);
  });
  res.on('end', () => {
    // What a StringDecoder still holds at the end decodes to U+FFFD only, never to a BOM.
    const rest = over || utf8 === undefined ? '' : utf8.end();
    if (rest.length > 0) read(rest);
    finish(undefined);
  });
  res.on('error', ignore); // 'close' below reports the cut
  res.on('close', () => {
    if (!res.complete) finish(terminated(undefined));
  });
}

const ignore = () => {};
