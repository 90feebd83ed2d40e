import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import {
  leanResponse,
  terminated,
  UPSTREAM_MESSAGE_LIMIT,
  upstreamMessageTooLarge,
  leadingBoms,
  BODY_BOMS,
  type LeanFetchLike,
} from './lean-fetch.js';
import { contentType } from './content-type-header.js';
import { readEvents } from './direct-events.js';
import { answered, checked, essence, plainHeaders, type SendInternals } from './lean-send.js';
import { streamLostHandler } from '../relay/relay-scope.js';
import { InFlight } from '../upstream/in-flight.js';
import { parseUpstream } from '../upstream/json-values.js';

/**
 * A 2025-era `tools/call` from the lean call (upstream/lean-call.ts) to the socket and from the
 * socket's bytes back to the Protocol, in one function each way (issue 34, wave 3 session 23).
 * Today's leg goes lean-call → the transport's `send` wrapper → lean-send (an async function) →
 * lean-fetch's `post` → `request` → `send` (a promise) → a LeanResponse, LeanHeaders and LeanBody
 * → `json()` → `read` (two more promises) → the transport's `onmessage`: every layer is cold code
 * after the upstream's wait, and the whole-process cost follows the layers touched, not the work
 * (docs/performance.md, "Layer by layer", wave 3 session 17). This writes the same request — the
 * same header record lean-send builds, the same body, through the same agent and address check
 * (lean-fetch.ts `open`) — and reads a plain answer (200, `application/json`, parameters allowed,
 * not compressed) with the same bounds and checks as LeanResponse.json and lean-send, handing
 * each message to the transport's `onmessage` as lean-send does.
 *
 * LAZY ESCALATION: whether a call goes here is decided before anything is sent (`directHeaders`):
 * a transport leanTransport marked (its `direct` option, on unless turned off), no `requestInit`,
 * the lean fetch itself (not the SDK's DPoP wrapper), an auth provider that can tell its token at
 * once (else lean-send's path asks it, with refresh), and no progress token (lean-call.ts). Once
 * the answer's head is in, a plain event stream (200, `text/event-stream` with any parameters or
 * casing the SDK takes, uncompressed) is read direct too (direct-events.ts, the same parser and
 * steps as lean-transport's reader); anything else — a 202, any other status (401/403 sign-in and
 * step-up, 404 stale session, redirects), another or compressed content type — goes to lean-send's
 * own `answered`, as a LeanResponse, so from there it is today's path exactly.
 * direct-call.property.test.ts runs both paths against the same generated upstream behaviour and
 * compares what the caller and the server see.
 */

/** Transports whose plain calls may go direct (leanTransport's `direct` option). */
const DIRECT = new WeakSet<object>();

export function allowDirect(transport: object): void {
  DIRECT.add(transport);
}

/**
 * The headers a direct call sends — what lean-send's `commonHeaders` builds, from the same
 * members — or undefined where the call is not for this path (decided before anything is sent).
 * A header value node:http would refuse comes back as its error: the call fails with it, told to
 * `onerror`, as lean-send's does.
 */
export function directHeaders(transport: Transport): Record<string, string> | Error | undefined {
  if (!DIRECT.has(transport)) return undefined;
  const t = transport as unknown as SendInternals;
  if (t._requestInit !== undefined) return undefined;
  const f = t._fetch as Partial<LeanFetchLike> | undefined;
  if (typeof f?.open !== 'function') return undefined;
  const protocol = t._url.protocol;
  if (protocol !== 'http:' && protocol !== 'https:') return undefined;
  const provider = t._authProvider;
  let token: string | undefined;
  const now = provider as Partial<{ tokenNow(): string | undefined | null }> | undefined;
  if (provider && typeof now?.tokenNow !== 'function') return undefined;
  try {
    if (provider) {
      const known = now!.tokenNow!();
      if (known === null) return undefined;
      token = known;
    }
    return plainHeaders(t, token);
  } catch (err) {
    return err as Error;
  }
}

/**
 * Sends `message` (a tools/call) and hands its answer to the transport's `onmessage`; `failed`
 * once, with what lean-send's promise would reject with, if the call cannot be answered so.
 */
export function directSend(
  transport: Transport,
  headers: Record<string, string> | Error,
  message: JSONRPCMessage,
  failed: (err: unknown) => void,
): void {
  const t = transport as unknown as SendInternals;
  if (headers instanceof Error) {
    t.onerror?.(headers);
    return failed(headers);
  }
  // The call's stream-lost callback, read now, in its relay scope (lean-fetch.ts `request`).
  const lost = streamLostHandler();
  (t._fetch as LeanFetchLike).open!(
    t._url,
    headers,
    JSON.stringify(message),
    (t as { _abortController?: AbortController })._abortController?.signal,
    (res, done) => {
      if (res.statusCode === 200 && res.headers['content-encoding'] === undefined) {
        // The reader the stock SDK client would pick (lean-send.ts `essence`, its
        // `mediaTypeEssence`): `text/event-stream; charset=utf-8` is an event stream here too.
        // A repeated Content-Type as fetch joins it (content-type-header.ts): the SDK refuses it.
        const type = essence(contentType(res) ?? null);
        if (type === 'text/event-stream') return readEvents(t, res, done, lost);
        if (type === 'application/json') return readJson(t, res, done, failed);
      }
      // Escalation: today's path from here on, the response as lean-fetch would have given it.
      answered(t, leanResponse(t._url, res, lost, done), message, {}).catch(failed);
    },
    (err) => {
      t.onerror?.(err as Error);
      failed(err);
    },
  );
}

/**
 * A plain JSON answer, read as LeanBody.read and LeanResponse.json read it: UTF-8 text piece by
 * piece (a StringDecoder only from the first piece that ends mid-sequence), the message bounded
 * by UPSTREAM_MESSAGE_LIMIT and its share of the in-flight budget held until it is parsed, a body
 * cut short failing as `terminated`; then parsed (json-values.ts bounds), every message checked
 * before any is delivered (lean-send.ts).
 */
function readJson(
  t: SendInternals,
  res: IncomingMessage,
  done: () => void,
  failed: (err: unknown) => void,
): void {
  let out = '';
  let over = false;
  let tooLarge: Error | undefined;
  let utf8: StringDecoder | undefined;
  const inFlight = new InFlight();
  const fail = (err: unknown) => {
    t.onerror?.(err as Error);
    failed(err);
  };
  const finish = (cut: unknown) => {
    if (over) return;
    over = true;
    done();
    if (tooLarge || cut !== undefined) {
      inFlight.release();
      return fail(tooLarge ?? cut);
    }
    let messages: JSONRPCMessage[];
    try {
      const data = parseUpstream(out);
      messages = (Array.isArray(data) ? data : [data]).map(checked);
    } catch (err) {
      return fail(err);
    } finally {
      inFlight.release();
    }
    try {
      for (const m of messages) t.onmessage?.(m);
    } catch (err) {
      fail(err);
    }
  };
  const chunk = (text: string) => {
    if (tooLarge) return;
    const n = out.length + text.length;
    tooLarge = n <= UPSTREAM_MESSAGE_LIMIT ? inFlight.hold(n) : upstreamMessageTooLarge();
    if (!tooLarge) return void (out += text);
    out = '';
    res.destroy();
    finish(terminated(tooLarge));
  };
  // The text LeanBody.read gives, piece for piece (a StringDecoder only from the first piece that
  // ends mid-sequence), and nothing after the end or a cut; leading BOMs dropped as it drops them
  // (lean-fetch.ts `leadingBoms`: the SDK's `response.json()` drops up to two),
  // inline rather than by a closure per body.
  let boms = BODY_BOMS;
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
    chunk(text);
  });
  res.on('end', () => {
    // What a StringDecoder still holds at the end decodes to U+FFFD only, never to a BOM.
    const rest = over || utf8 === undefined ? '' : utf8.end();
    if (rest.length > 0) chunk(rest);
    finish(undefined);
  });
  res.on('error', ignore); // 'close' below reports the cut
  res.on('close', () => {
    if (!res.complete) finish(terminated(undefined));
  });
}

const ignore = () => {};
