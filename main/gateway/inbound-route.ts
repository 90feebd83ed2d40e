import {
  classifyInboundRequest,
  type InboundClassificationOutcome,
} from '@modelcontextprotocol/server';
import type { McpExchange } from './http-server.js';
import { everydayModernRequest } from './modern-route.js';
import { everydaySessionRequest } from './session-route.js';

/** The modern revision everydaySessionRequest leaves alone (it answers only below it). */
const MODERN = '2026-07-28';

/**
 * The era of a request: the SDK's own classification (what its isLegacyRequest runs), from the
 * headers and the body the gateway already parsed — no web Request needed; both eras' everyday
 * requests skip its zod passes where sure (issue 34: session-route.ts, modern-route.ts).
 */
export function classify(req: McpExchange['req'], body: unknown): InboundClassificationOutcome {
  const { headers } = req;
  // A header's value as the classifier takes it: one string. Read in place, not by a helper
  // (issue 34: one function less on every request's path).
  const v = headers['mcp-protocol-version'];
  const version = typeof v === 'string' ? v : undefined;
  const m = headers['mcp-method'];
  const method = typeof m === 'string' ? m : undefined;
  // The 2025 shortcut answers nothing for the modern revision's header: not called for it.
  const sure =
    (version !== MODERN ? everydaySessionRequest(req.method, version, body) : undefined) ??
    everydayModernRequest(req.method, version, method, body);
  if (sure) return sure;
  const n = headers['mcp-name'];
  return classifyInboundRequest({
    httpMethod: req.method ?? 'GET',
    protocolVersionHeader: version,
    mcpMethodHeader: method,
    mcpNameHeader: typeof n === 'string' ? n : undefined,
    ...(body !== undefined ? { body } : {}),
  });
}
