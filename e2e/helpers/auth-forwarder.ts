import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback forwarder that adds `Authorization: Bearer <token>` and passes
 * everything else through unchanged — Host and Origin included — so tools
 * that cannot send a header (the conformance suite) can test the real,
 * authenticated gateway without weakening it.
 */
export async function startAuthForwarder(
  targetPort: number,
  token: string,
): Promise<{ port: number; url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: targetPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${token}` },
        setHost: false,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
