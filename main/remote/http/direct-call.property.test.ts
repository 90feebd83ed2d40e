import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { StreamableHTTPClientTransport as Transport } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// One event's bound (64 MiB in the product) made small enough to generate events past it: both
// readers of an event stream — lean-transport.ts's and direct-events.ts's — import it from here,
// so both are held to the same smaller bound. (A JSON body's reader in lean-fetch.ts keeps its own
// 64 MiB: no generated JSON body comes near either, and an oversize answer is an event stream's.)
vi.mock('./lean-fetch.js', async (original) => ({
  ...(await original<typeof import('./lean-fetch.js')>()),
  UPSTREAM_MESSAGE_LIMIT: 65_536,
}));
const SMALL_LIMIT = 65_536;
import { leanTransport } from './lean-transport.js';
import { callingAgent, inRelayScope } from '../relay/relay-scope.js';
import { leanCallTool } from '../upstream/lean-call.js';
import { UpstreamClient } from '../upstream/upstream-client.js';

/**
 * Issue 34, wave 3 session 23: a plain 2025-era tools/call sent straight to the socket
 * (direct-call.ts) gives its caller, its server and the Protocol's books exactly what today's
 * path (lean-send.ts over lean-fetch's promise and response objects) gives, for generated
 * upstream behaviour. A raw node:http server answers each call as a generated script says: a JSON
 * answer (alone or in a batch after notifications and requests the client answers), an event
 * stream with mid-call log lines, pings and elicitations (the client answers them, in the call's
 * relay scope, before the server goes on), malformed events and answers, answers nested past the
 * bounds, every other status and content type, a compressed body, the body written in pieces
 * split where the script says, and a connection closed mid-body; the caller cancels before or
 * after the answer, or the call times out (fake timers: no clock decides). Compared, path against
 * path: the outcome (result, or error class, code and message), every POST the server received
 * (headers and body, in order), the client's log lines and relayed requests (with the agent whose
 * scope they ran in), onerror reports, stream-lost reports, and the Protocol's books afterwards.
 */
type Note =
  | { kind: 'log'; data: unknown }
  | { kind: 'ping' }
  | { kind: 'elicit'; message: string }
  | { kind: 'progress'; progress: number }
  | { kind: 'bad' }
  | { kind: 'stray' };
type Final =
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; code: number; message: string }
  | { kind: 'malformed' }
  | { kind: 'deep' }
  | { kind: 'huge' }
  | { kind: 'silent' };
/** How an event stream is framed (HTML Living Standard, "server-sent events", parsing). */
interface Framing {
  /** Each line's end. */
  end: '\n' | '\r\n' | '\r';
  /** A BOM first, then a `retry:` line (a BOM decoded as U+FEFF belongs to the first line). */
  bom: boolean;
  /** A `retry:` field, alone in an event, first. */
  retry: boolean;
  /** A comment line before each event's fields. */
  comments: boolean;
  /** An `id:` on each event (a stream so primed may be resumed). */
  ids: boolean;
  /** The space after each field's colon (one is dropped: a pretty-printed line keeps its own). */
  space: boolean;
  /** Each message pretty-printed: one `data:` line per line of JSON, joined again by "\n". */
  multiline: boolean;
  /** Each event's name, by its place: `message`, none, or another (skipped unless a request). */
  names: ('message' | 'none' | 'other')[];
  /** The answer's event ends unfinished: its blank line (or its last line's end) never comes. */
  unfinished: 'no' | 'event' | 'line';
  /** Every CR written ends a piece (a CR LF split across two pieces). */
  crSplit: boolean;
}
interface Script {
  status: 200 | 202 | 400 | 401 | 404 | 500;
  type: string;
  gzip: boolean;
  notes: Note[];
  final: Final;
  /** Where the body is split into writes (fractions of its length). */
  splits: number[];
  /** The connection is destroyed after this fraction of the body, if given. */
  cut: number | undefined;
  cancel: 'none' | 'before' | 'after' | 'timeout';
  auth: { token: string } | undefined;
  sse: Framing;
}

const json = fc.jsonValue({ maxDepth: 2 });
const note: fc.Arbitrary<Note> = fc.oneof(
  fc.record({ kind: fc.constant('log' as const), data: json }),
  fc.constant({ kind: 'ping' as const }),
  fc.record({ kind: fc.constant('elicit' as const), message: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('progress' as const), progress: fc.nat(9) }),
  fc.constant({ kind: 'bad' as const }),
  fc.constant({ kind: 'stray' as const }),
);
const final: fc.Arbitrary<Final> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('result' as const),
      result: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.record(
            {
              content: fc.array(
                fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 12 }) }),
                { maxLength: 2 },
              ),
              isError: fc.boolean(),
              resultType: fc.constant('complete'),
              _meta: fc.dictionary(fc.string({ maxLength: 3 }), json, { maxKeys: 2 }),
            },
            { requiredKeys: ['content'] },
          ),
        },
        json,
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('error' as const),
      code: fc.constantFrom(-32042, -32602, -32603, -32000),
      message: fc.string({ maxLength: 10 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'malformed' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'deep' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'huge' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'silent' as const }) },
);
const script: fc.Arbitrary<Script> = fc
  .record({
    status: fc.constantFrom(200, 200, 200, 200, 200, 200, 200, 200, 202, 400, 401, 404, 500),
    // Weighted onto the direct readers: as servers send them, plain JSON and (most of all) events.
    type: fc.constantFrom(
      'application/json',
      'application/json',
      'application/json',
      'text/event-stream',
      'text/event-stream',
      'text/event-stream',
      'text/event-stream',
      'text/event-stream',
      'text/event-stream; charset=utf-8',
      'application/json; charset=utf-8',
      'text/plain',
      '',
    ),
    gzip: fc.constantFrom(false, false, false, false, false, true),
    notes: fc.array(note, { maxLength: 4 }),
    final,
    splits: fc.array(
      fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
      { maxLength: 4 },
    ),
    cut: fc.oneof(
      { weight: 5, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 99 }).map((n) => n / 100) },
    ),
    cancel: fc.constantFrom('none', 'none', 'none', 'before', 'after', 'timeout'),
    auth: fc.option(
      fc.record({ token: fc.constantFrom('tok', ' tok ', 'a.b-c', 'bad\ntoken', '') }),
      { nil: undefined },
    ),
    sse: fc.record({
      end: fc.constantFrom('\n' as const, '\r\n' as const, '\r' as const),
      bom: fc.boolean(),
      retry: fc.boolean(),
      comments: fc.boolean(),
      ids: fc.boolean(),
      space: fc.boolean(),
      multiline: fc.boolean(),
      names: fc.array(fc.constantFrom('message' as const, 'none' as const, 'other' as const), {
        minLength: 1,
        maxLength: 3,
      }),
      unfinished: fc.constantFrom(
        'no' as const,
        'no' as const,
        'no' as const,
        'event' as const,
        'line' as const,
      ),
      crSplit: fc.boolean(),
    }),
  })
  .map((s): Script => {
    // Scripts whose end no race decides: a call never answered ends by cancellation (after the
    // server has written and the client has read everything before it) or by its timeout; one
    // answered is cancelled, if at all, after its answer; a stream cut mid-answer ends the call
    // by its stream-lost report (remote-calls.ts does the same).
    const sse = s.status === 200 && s.type.startsWith('text/event-stream');
    // An oversize answer is an event stream's (see SMALL_LIMIT).
    if (!sse && s.final.kind === 'huge') s = { ...s, final: { kind: 'deep' } };
    // A cut stream has no unfinished end of its own, nor one over the bound (it is cut).
    if (s.cut !== undefined || s.final.kind === 'huge')
      s = { ...s, sse: { ...s.sse, unfinished: 'no' } };
    const unanswered = sse && s.sse.unfinished !== 'no';
    // (No stray answer before a cut, an answer over a bound or an unfinished one: the stream
    // reader takes any answer on the stream as the call's and then reports no loss, so such a call
    // would wait for its timeout, on both paths.)
    const stops = s.cut !== undefined || s.final.kind === 'deep' || s.final.kind === 'huge';
    if (sse && (stops || unanswered) && s.final.kind !== 'silent')
      s = { ...s, notes: s.notes.filter((n) => n.kind !== 'stray') };
    if (sse && s.cut !== undefined && s.final.kind !== 'silent') return { ...s, cancel: 'none' };
    // A call never answered: the head only (whatever the type: the SDK's path waits for the body
    // of an unexpected type too), a 202, or an event stream whose answer never ends.
    const waits = s.status === 202 || (s.status === 200 && s.final.kind === 'silent') || unanswered;
    if (waits) return { ...s, cancel: s.cancel === 'timeout' ? 'timeout' : 'before' };
    if (s.cancel === 'before' || s.cancel === 'timeout') return { ...s, cancel: 'after' };
    return s;
  });

/** What the server saw, in order: each POST's headers (host aside) and body. */
let seen: { headers: Record<string, unknown>; body: unknown }[] = [];
let current: Script;
let url: URL;
const sockets = new Set<Socket>();
let close: () => Promise<void>;
/** Wakes whoever waits for the client's next POST of a given kind. */
/** Wakes the caller once a call the server will not answer has had everything else written. */
let scriptDone: (() => void) | undefined;
let waiters: { test: (m: Record<string, unknown>) => boolean; wake: () => void }[] = [];

function waitFor(test: (m: Record<string, unknown>) => boolean): Promise<void> {
  if (seen.some((s) => test(s.body as Record<string, unknown>))) return Promise.resolve();
  return new Promise((wake) => waiters.push({ test, wake }));
}

function received(req: IncomingMessage, body: unknown): void {
  const { host: _host, ...headers } = req.headers;
  seen.push({ headers, body });
  for (const w of [...waiters])
    if (w.test(body as Record<string, unknown>)) {
      waiters = waiters.filter((x) => x !== w);
      w.wake();
    }
}

const answers = (id: unknown) => (m: Record<string, unknown>) =>
  m.id === id && ('result' in m || 'error' in m);

function noteMessage(n: Note, callId: number, k: number): Record<string, unknown> | string {
  if (n.kind === 'log')
    return {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: n.data },
    };
  if (n.kind === 'ping') return { jsonrpc: '2.0', id: `p${k}`, method: 'ping' };
  if (n.kind === 'elicit')
    return {
      jsonrpc: '2.0',
      id: `e${k}`,
      method: 'elicitation/create',
      params: { message: n.message, requestedSchema: { type: 'object', properties: {} } },
    };
  if (n.kind === 'progress')
    return {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: callId, progress: n.progress },
    };
  if (n.kind === 'bad') return '{"jsonrpc":"2.0","what":1}';
  return { jsonrpc: '2.0', id: callId + 1000, result: { content: [] } };
}

function finalMessage(f: Final, id: number): unknown {
  if (f.kind === 'result') return { jsonrpc: '2.0', id, result: f.result };
  if (f.kind === 'error')
    return { jsonrpc: '2.0', id, error: { code: f.code, message: f.message } };
  if (f.kind === 'malformed') return { jsonrpc: '2.0', id, result: 5, extra: true };
  if (f.kind === 'huge')
    return {
      jsonrpc: '2.0',
      id,
      result: { content: [{ type: 'text', text: 'h'.repeat(SMALL_LIMIT) }] },
    };
  let deep: unknown = { content: [] };
  for (let i = 0; i < 2000; i++) deep = { d: deep };
  return { jsonrpc: '2.0', id, result: deep };
}

/** Writes `body` in the script's pieces; the last part of an answer also ends (or cuts) it. */
async function writePieces(
  res: ServerResponse,
  body: Buffer,
  s: Script,
  last = true,
): Promise<void> {
  const end = s.cut === undefined || !last ? body.length : Math.floor(body.length * s.cut);
  const points = s.splits.map((f) => Math.floor(f * end));
  if (s.sse.crSplit)
    for (let i = body.indexOf(13); i >= 0; i = body.indexOf(13, i + 1)) points.push(i + 1);
  const at = [...new Set(points)].sort((a, b) => a - b);
  let from = 0;
  for (const to of [...at, end]) {
    if (to <= from) continue;
    // Each piece handed to the socket before the next (and before a cut destroys it).
    await new Promise((r) => res.write(body.subarray(from, to), r));
    from = to;
  }
  if (!last) return;
  if (s.cut !== undefined) res.socket?.destroy();
  else res.end();
}

async function answerCall(res: ServerResponse, id: number): Promise<void> {
  const s = current;
  const headers: Record<string, string> = s.type ? { 'content-type': s.type } : {};
  if (s.gzip) headers['content-encoding'] = 'gzip';
  if (s.status === 202) {
    res.writeHead(202).end();
    return scriptDone?.();
  }
  if (s.status !== 200) {
    const text = Buffer.from(`refused ${s.status}`);
    return void res.writeHead(s.status, headers).end(s.gzip ? gzipSync(text) : text);
  }
  const sse = s.type.startsWith('text/event-stream');
  if (!sse) {
    // A JSON answer: notifications and requests first in a batch; the client answers requests later.
    if (s.final.kind === 'silent') {
      res.writeHead(200, headers).flushHeaders();
      return scriptDone?.();
    }
    const notes = s.notes.filter((n) => n.kind !== 'ping' && n.kind !== 'elicit');
    const all = [...notes.map((n, k) => noteMessage(n, id, k)), finalMessage(s.final, id)];
    const text = all.some((m) => typeof m === 'string')
      ? `[${all.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join(',')}]`
      : JSON.stringify(all.length === 1 ? all[0] : all);
    const raw = Buffer.from(text);
    const body = s.gzip ? gzipSync(raw) : raw;
    // Its length told, as servers do: a connection closed before it is a body cut short.
    res.writeHead(200, { ...headers, 'content-length': String(body.length) });
    return writePieces(res, body, s);
  }
  res.writeHead(200, headers);
  res.flushHeaders();
  // An event stream: each request waits for the client's answer before the stream goes on. A
  // stream that stays open ends its notes with a ping: once it is answered, the client has read
  // and dispatched everything before it (messages are handled in order).
  // (So does one whose answer never ends: everything before that answer has been read then.)
  const f = s.sse;
  const open = s.final.kind === 'silent' || f.unfinished !== 'no';
  const notes: Note[] = open ? [...s.notes, { kind: 'ping' }] : s.notes;
  const E = f.end;
  const sp = f.space ? ' ' : '';
  // A BOM before a `retry:` line: whether the reader drops it shows in the retry it keeps.
  let head = f.bom ? `\uFEFFretry:${sp}2500${E}${E}` : '';
  if (f.retry) head += `retry:${sp}1500${E}${E}`;
  // (`kept`: never named `other`, which no reader delivers — a request, and the answer.)
  const frame = (m: unknown, k: number, kept: boolean, unfinished = f.unfinished) => {
    const lines: string[] = [];
    if (f.comments) lines.push(`:${sp}keep-alive`);
    const name = f.names[k % f.names.length]!;
    if (name === 'message') lines.push(`event:${sp}message`);
    if (name === 'other' && !kept) lines.push(`event:${sp}other`);
    if (f.ids) lines.push(`id:${sp}${k}`);
    const text = typeof m === 'string' ? m : JSON.stringify(m, null, f.multiline ? 1 : undefined);
    for (const l of text.split('\n')) lines.push(`data:${sp}${l}`);
    const out = lines.join(E);
    if (unfinished === 'line') return out;
    if (unfinished === 'event') return out + E;
    // A CR that ends the body is never acted on (the parser waits to see whether LF follows,
    // and nothing ends the wait at the body's end — on both paths): a line after it ends the wait.
    return out + E + E + (E === '\r' ? `:${sp}end${E}` : '');
  };
  for (let k = 0; k < notes.length; k++) {
    const n = notes[k]!;
    const m = noteMessage(n, id, k);
    const request = n.kind === 'ping' || n.kind === 'elicit';
    await writePieces(res, Buffer.from(head + frame(m, k, request, 'no')), s, false);
    head = '';
    if (request) await waitFor(answers((m as { id: string }).id));
  }
  if (head) await writePieces(res, Buffer.from(head), s, false);
  if (s.final.kind === 'silent') return scriptDone?.();
  const last = Buffer.from(frame(finalMessage(s.final, id), notes.length, true));
  await writePieces(res, last, s);
  // Ended without an answer the reader can take: the caller cancels (or times out) from here.
  if (f.unfinished !== 'no') scriptDone?.();
}

function handle(req: IncomingMessage, text: string, res: ServerResponse): void {
  const msg = JSON.parse(text) as { method?: string; id?: number };
  received(req, msg);
  if (msg.method === 'initialize')
    return void res
      .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' })
      .end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: msg.id,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {}, logging: {} },
            serverInfo: { name: 'scripted', version: '1' },
          },
        }),
      );
  if (msg.method !== 'tools/call') return void res.writeHead(202).end();
  void answerCall(res, msg.id!);
}

beforeAll(async () => {
  const s = createServer((req, res) => {
    // A socket per request: one a run closes is never reused by the next (the agent is shared).
    res.shouldKeepAlive = false;
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => handle(req, body, res));
  });
  s.on('connection', (c) => {
    sockets.add(c);
    c.on('close', () => sockets.delete(c));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  url = new URL(`http://127.0.0.1:${(s.address() as AddressInfo).port}/mcp`);
  close = () => {
    s.closeAllConnections();
    return new Promise((r) => s.close(() => r()));
  };
});
afterAll(() => close());

interface Books {
  _requestMessageId: number;
  _responseHandlers: Map<unknown, unknown>;
  _progressHandlers: Map<unknown, unknown>;
  _timeoutInfo: Map<unknown, unknown>;
}

const TIMEOUT = 30_000;

async function run(s: Script, direct: boolean): Promise<unknown> {
  current = s;
  seen = [];
  waiters = [];
  // The handshake goes with a plain token; the generated one is the call's.
  let connected = false;
  const provider = s.auth && {
    token: () => Promise.resolve(connected ? s.auth!.token : 'handshake'),
    tokenNow: () => (connected ? s.auth!.token : 'handshake'),
  };
  const t = leanTransport(url, { 'x-custom': 'v1' }, provider, undefined, direct) as Transport;
  const client = new UpstreamClient(
    { name: 'airlock', version: 'test' },
    { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: {} } },
  );
  const errors: string[] = [];
  const logs: unknown[] = [];
  const relayed: unknown[] = [];
  const lost: string[] = [];
  client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params.data));
  client.setRequestHandler('elicitation/create', (r) => {
    relayed.push([r.params.message, callingAgent()]);
    return Promise.resolve({ action: 'decline' as const });
  });
  await client.connect(t);
  connected = true;
  client.onerror = (e) => void errors.push(String(e.message).replace(/\d{4,}/g, 'N'));
  const cancel = new AbortController();
  // The call's signal, which the agent's cancellation and a lost stream abort (remote-calls.ts).
  const ended = new AbortController();
  cancel.signal.addEventListener('abort', () => ended.abort(cancel.signal.reason));
  const written = new Promise<void>((r) => (scriptDone = r));
  // A stream primed by an event id that ends unanswered is resumed by the SDK: noted, not sent.
  const resumed: unknown[] = [];
  let resumedOnce: () => void = () => {};
  const resumption = new Promise<void>((r) => (resumedOnce = r));
  (
    t as unknown as { _scheduleReconnection: (o: { resumptionToken?: string }) => void }
  )._scheduleReconnection = (o) => {
    resumed.push(o);
    resumedOnce();
  };
  // No clock decides a run: the call's timeout (and a resumed stream's delay) fire only when a
  // 'timeout' script moves the fake clock; a run that waited on one would fail the test's bound.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let outcome: unknown;
  let timedOut = false;
  try {
    const scope = {
      agent: 'agent-x',
      signal: cancel.signal,
      relay: undefined,
      onStreamLost: (e: unknown) => {
        lost.push(String(e));
        ended.abort(new Error('stream lost'));
      },
    };
    const call = inRelayScope(scope, () =>
      leanCallTool(
        client,
        { name: 'echo', arguments: { a: 1 } },
        {
          signal: ended.signal,
          timeout: TIMEOUT,
          maxTotalTimeout: TIMEOUT * 4,
          resetTimeoutOnProgress: true,
        },
      )!,
    );
    const done = call.then(
      (r) => ({ result: r }),
      (e: Error & { code?: unknown }) => ({
        error: [e.constructor.name, e.code, String(e.message).replace(/\d{4,}/g, 'N')],
      }),
    );
    if (s.cancel === 'before' || s.cancel === 'timeout') {
      // (A call refused before it is sent — a header value node:http refuses — is over already.)
      const sentIt = await Promise.race([written.then(() => true), done.then(() => false)]);
      // An event stream primed by an id (a note's event) that ends without its answer: read to
      // its end first.
      if (
        sentIt &&
        s.status === 200 &&
        s.final.kind !== 'silent' &&
        s.sse.ids &&
        s.sse.unfinished !== 'no' &&
        s.type.startsWith('text/event-stream')
      )
        await resumption;
      if (!sentIt) {
        // nothing to cancel
      } else if (s.cancel === 'before') cancel.abort('user stop');
      else {
        vi.advanceTimersByTime(TIMEOUT);
        timedOut = true;
      }
    }
    outcome = await done;
    // Cancelled while it ran (by the agent, a lost stream or its timeout): a cancellation goes up.
    const cancelled = ended.signal.aborted || timedOut;
    if (s.cancel === 'after') cancel.abort('too late');
    if (cancelled) await waitFor((m) => m.method === 'notifications/cancelled');
  } finally {
    vi.useRealTimers();
  }
  const b = client as unknown as Books;
  const books = {
    next: b._requestMessageId,
    handlers: b._responseHandlers.size,
    progress: b._progressHandlers.size,
    timeouts: b._timeoutInfo.size,
    retry: (t as unknown as { _serverRetryMs?: number })._serverRetryMs,
  };
  // What is reported from here on is the close's, not the call's.
  const reported = [...errors];
  await client.close();
  for (const c of sockets) c.destroy();
  return { outcome, seen, errors: reported, logs, relayed, lost, books, resumed };
}

/**
 * The SDK's Protocol runs a notification's handler a microtask after the transport delivers it
 * (`Protocol._onnotification`: `Promise.resolve().then(() => handler(…))`), so the progress
 * handler's "unknown token" report lands after the reader's own reports of any later message
 * read in the same piece, and before those of a later piece. Where the body's pieces fall is the
 * kernel's: under load the server's writes coalesce on the socket, differently in the two runs
 * (a CI run with two CPU hogs beside it failed on exactly that, held-out seed 914337). So those
 * deferred reports are compared in order among themselves, apart from the synchronous ones,
 * which are compared in order as before.
 */
// The same holds for a response: UpstreamClient dispatches it a microtask later too
// (upstream-client.ts `_onresponse`), so a stray answer's "unknown message ID" report moves the
// same way (CI with two hogs failed tuned seed 20261204 on that order); and for a throw from a
// notification handler, which the SDK reports from its promise.
const DEFERRED =
  /^(Received a progress notification for an unknown token|Received a response for an unknown message ID|Uncaught error in notification handler)/;
function apart(r: unknown): unknown {
  const { errors, ...rest } = r as { errors: string[] };
  return {
    ...rest,
    errors: errors.filter((e) => !DEFERRED.test(e)),
    deferredErrors: errors.filter((e) => DEFERRED.test(e)),
  };
}

/** A call the server may still be answering when compared: only settled scripts are compared. */
export async function differential(s: Script): Promise<void> {
  const today = await run(s, false);
  const direct = await run(s, true);
  expect(apart(direct)).toEqual(apart(today));
}

describe('a direct tools/call ≡ today’s lean path', () => {
  it('gives the caller, the server and the books the same for generated upstream behaviour', async () => {
    await fc.assert(fc.asyncProperty(script, differential), {
      numRuns: Number(process.env.RUNS ?? 500),
    });
  }, 60_000);

  it('and on held-out seeds never tuned on', async () => {
    for (const seed of [914_337, 27_181, 4_040_404, 123_457, 777_001])
      await fc.assert(fc.asyncProperty(script, differential), { numRuns: 100, seed });
  }, 60_000);
});
