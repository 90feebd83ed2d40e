import type { Client, ClientOptions } from '@modelcontextprotocol/client';
import { noticeMeta } from '../../tools/untrusted.js';
import type { UpstreamOptions } from './upstream.js';

/**
 * What an upstream connection does besides tools (issue 14): log lines,
 * resource updates and the server's sampling/elicitation/roots requests go
 * to the connection's owner (RemoteSource), which routes them to agents.
 */

/**
 * The client options that make an upstream offer and tell Airlock what agents may use:
 * sampling/elicitation/roots declared (each request is relayed to the agent whose call caused
 * it, or refused with the reason: main/remote/relay/relay-scope.ts), and list_changed for tools,
 * resources and prompts. One place for every transport (HTTP, SSE, a local process).
 */
export function featureClientOptions(
  o: Pick<UpstreamOptions, 'onRelay' | 'onNotice' | 'onToolsChanged'>,
): Pick<ClientOptions, 'capabilities' | 'listChanged'> {
  return {
    ...(o.onRelay
      ? { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: {} } }
      : {}),
    listChanged: {
      ...(o.onToolsChanged
        ? {
            tools: {
              autoRefresh: false,
              debounceMs: 100,
              onChanged: () => o.onToolsChanged?.(),
            },
          }
        : {}),
      ...(o.onNotice
        ? {
            resources: {
              autoRefresh: false,
              debounceMs: 100,
              onChanged: () => o.onNotice?.({ kind: 'resources-changed' }),
            },
            prompts: {
              autoRefresh: false,
              debounceMs: 100,
              onChanged: () => o.onNotice?.({ kind: 'prompts-changed' }),
            },
          }
        : {}),
    },
  };
}

export function wireFeatures(
  client: Client,
  o: Pick<UpstreamOptions, 'onNotice' | 'onRelay' | 'onElicitationComplete'>,
): void {
  if (o.onElicitationComplete) {
    const done = o.onElicitationComplete;
    client.setNotificationHandler('notifications/elicitation/complete', (n) =>
      done(n.params.elicitationId, noticeMeta(n.params._meta)),
    );
  }
  if (o.onNotice) {
    const notice = o.onNotice;
    // Every field the schema gives these notifications' params (MCP 2025-11-25 and 2026-07-28:
    // LoggingMessageNotificationParams `level`, `logger`, `data`; ResourceUpdatedNotificationParams
    // `uri`; both NotificationParams' `_meta`), the `_meta` filtered here, once, as a result's is
    // (noticeMeta): every path to an agent then carries what is left.
    client.setNotificationHandler('notifications/message', (n) => {
      const meta = noticeMeta(n.params._meta);
      notice({
        kind: 'log',
        level: n.params.level,
        data: n.params.data,
        ...(n.params.logger ? { logger: n.params.logger } : {}),
        ...(meta ? { _meta: meta } : {}),
      });
    });
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      const meta = noticeMeta(n.params._meta);
      notice({ kind: 'resource-updated', uri: n.params.uri, ...(meta ? { _meta: meta } : {}) });
    });
  }
  if (o.onRelay) {
    const relay = o.onRelay;
    client.setRequestHandler(
      'sampling/createMessage',
      async (req) =>
        (await relay('sampling/createMessage', req.params as Record<string, unknown>)) as never,
    );
    client.setRequestHandler(
      'elicitation/create',
      async (req) =>
        (await relay('elicitation/create', req.params as Record<string, unknown>)) as never,
    );
    client.setRequestHandler(
      'roots/list',
      async (req) =>
        (await relay('roots/list', (req.params ?? {}) as Record<string, unknown>)) as never,
    );
  }
}

/**
 * Reports a call's SSE response body that breaks (socket cut, mid-event or
 * not) to the call. A graceful end is left to the SDK, which resumes with
 * Last-Event-ID where the server offered it (the conformance `sse-retry`).
 */
export function watchStream(r: Response, lost: (err: unknown) => void): Response {
  if (!r.body || !r.headers.get('content-type')?.includes('text/event-stream')) return r;
  const reader = r.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (err) {
        lost(err);
        controller.error(err);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: r.status, statusText: r.statusText, headers: r.headers });
}
