import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on, for an upstream that cannot be reached: connecting is
 * refused at once, so the test waits on the refusal and never on a timeout.
 */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
