import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Server,
  Transport,
} from '@modelcontextprotocol/server';
import { requestShaped } from './session-route.js';

type Dispatch = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

/**
 * Call right after `server.connect(transport)`: requests the gateway has already proven to be
 * requests go straight to the server's request dispatch (issue 34).
 *
 * `Protocol.connect` makes the transport's onmessage a closure that tries each message against
 * the SDK's JSONRPCResultResponseSchema, JSONRPCErrorResponseSchema and JSONRPCRequestSchema in
 * turn (zod, about 3% of the gateway's CPU per passthrough call: two failing parses that build
 * their error objects, then one passing) before it calls `_onrequest(message, extra)`. For a
 * message requestShaped (session-route.ts) takes, the answer is known: the first two refuse it
 * and the third takes it (request-dispatch.property.test.ts checks this against the SDK's own
 * guards), so it is handed to `_onrequest` with the same arguments; any other message (responses,
 * notifications, initialize, anything unusual) still goes through the SDK's closure. The closure
 * also calls the transport's onmessage from before connect; Airlock's transports have none.
 *
 * `_onrequest` is private in the SDK's types (it is the method that closure calls); where an SDK
 * has none, the transport is left as connect made it.
 */
export function directRequests(server: Server, transport: Transport): void {
  const sdk = transport.onmessage as Dispatch | undefined;
  const onrequest = (server as unknown as { _onrequest?: unknown })._onrequest;
  if (sdk === undefined || typeof onrequest !== 'function') return;
  const request = onrequest.bind(server) as Dispatch;
  transport.onmessage = (message, extra) =>
    requestShaped(message) ? request(message, extra) : sdk(message, extra);
}
