import {
  classifyInboundRequest,
  type InboundClassificationOutcome,
} from '@modelcontextprotocol/server';
import type { McpExchange } from './http-server.js';
import { everydayModernRequest } from './modern-route.js';
import { everydaySessionRequest } from './session-route.js';

/**
 * The era of a request: the SDK's own classification (what its isLegacyRequest runs), from the
 * headers and the body the gateway already parsed — no web Request needed; both eras' everyday
 * requests skip its zod passes where sure (issue 34: session-route.ts, modern-route.ts).
 */
export function classify(req: McpExchange['req'], body: unknown): InboundClassificationOutcome {
  const { headers } = req;
  const version = header(headers['mcp-protocol-version']);
  const sure =
    everydaySessionRequest(req.method, version, body) ??
    everydayModernRequest(req.method, version, header(headers['mcp-method']), body);
  if (sure) return sure;
  return classifyInboundRequest({
    httpMethod: req.method ?? 'GET',
    protocolVersionHeader: version,
    mcpMethodHeader: header(headers['mcp-method']),
    mcpNameHeader: header(headers['mcp-name']),
    ...(body !== undefined ? { body } : {}),
  });
}

/** A header's value as the classifier takes it: one string (a module function, not a closure per call). */
function header(v: string | string[] | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
