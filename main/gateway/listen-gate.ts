/**
 * Whether the SDK's own 2026-07-28 entry (createMcpHandler) would serve a `subscriptions/listen`
 * request: claimed revision supported, SEP-2243 standard headers present and matching the body,
 * a valid `_meta` envelope, Content-Type. Airlock serves listen itself (listen-streams.ts), so
 * those checks must still be the SDK's, made by the SDK: the request goes through the entry,
 * whose factory is reached for a listen only after every check passed; there the gate stops it
 * (before the SDK's shared listen router) and says so. Any other answer is the SDK's refusal,
 * which the agent gets as it is.
 */
export class ListenGate {
  private readonly asked = new WeakSet<Request>();
  private readonly passed = new WeakSet<Request>();

  /** For the entry's factory: true (and the factory must throw PASSED) for a gated request. */
  stop(request: Request | undefined): boolean {
    if (!request || !this.asked.has(request)) return false;
    this.passed.add(request);
    return true;
  }

  /** Runs the SDK's entry on `request`; `serve` answers when every check passed. */
  async check(
    request: Request,
    entry: (request: Request) => Promise<Response>,
    serve: () => Response,
  ): Promise<Response> {
    this.asked.add(request);
    const refusal = await entry(request);
    if (!this.passed.has(request)) return refusal;
    await refusal.body?.cancel();
    return serve();
  }
}

/** What the factory throws for a gated listen that passed (not an error: the entry logs it). */
export const PASSED = new Error('subscriptions/listen passed the SDK checks; served by Airlock');
