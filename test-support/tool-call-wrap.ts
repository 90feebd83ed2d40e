import {
  Server,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';

/**
 * The set-up shared by the tests that compare our tools/call wrappers (TaskServer, PlainCallServer)
 * with the SDK Server's own: main/gateway/mcp-handlers/tool-call-shapes.property.test.ts and
 * tool-call-shapes.rev2.test.ts. Kept in one place so both drive the SDK the same way.
 */
export type Wrap = (
  method: string,
  handler: (r: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
) => (r: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export const info = { name: 't', version: '1' };
export const options = { capabilities: { tools: {} } };

/** The SDK's own wrapper, called on an SDK Server (`sdkWrap.call(server, …)`). */
export const sdkWrap = (Server.prototype as unknown as { _wrapHandler: Wrap })._wrapHandler;
export const ctx = { mcpReq: { requestState: () => undefined } } as unknown as ServerContext;

type Wrapped = (r: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * What the function registered for tools/call is handed: by the SDK, its parse of the request;
 * by TaskServer / PlainCallServer with `toolCall` set (tools.ts), parsedToolCall's copy where it
 * is sure. `direct` sets `toolCall` as the gateway does on our servers.
 */
export async function handedBy(
  server: Server,
  direct: boolean,
  request: unknown,
): Promise<unknown[]> {
  const seen: unknown[] = [];
  const fn = async (r: unknown) => {
    seen.push(r);
    return { content: [] };
  };
  server.setRequestHandler('tools/call', fn);
  if (direct) (server as unknown as { toolCall: typeof fn }).toolCall = fn;
  const h = (server as unknown as { _requestHandlers: Map<string, Wrapped> })._requestHandlers;
  await h.get('tools/call')!(structuredClone(request) as JSONRPCRequest, ctx).catch(
    () => undefined,
  );
  return seen;
}
