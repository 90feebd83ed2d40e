import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../../platform/log.js';
import type { Resolver } from '../../http/address-guard.js';
import { FORWARDER_PORT } from './forwarder.js';
import { HostProxy, type AddressRefusal } from './host-proxy.js';
import { parseHostRule } from './host-rules.js';

const MAX_REFUSED = 20;

/**
 * One host-list proxy per local server (issue 35), made at its first start with a host list and
 * kept across its restarts (new rules apply to new connections), and what each server was
 * refused. Linux: Unix sockets in one owner-only temporary folder (bound into the sandboxes, one
 * each); macOS: loopback ports.
 */
export class ServerProxies {
  private readonly proxies = new Map<string, { proxy: HostProxy; at: string | number }>();
  private readonly refused = new Map<string, Set<string>>();
  private dir: string | undefined;
  private count = 0;

  constructor(
    private readonly platform: NodeJS.Platform,
    private readonly logger: Logger,
    /** Resolves listed names (host-proxy.ts; the system's resolver unless a test gives one). */
    private readonly resolve?: Resolver,
  ) {}

  /** The sockets' folder, once made: no sandbox may see the other servers' sockets. */
  get socketDir(): string | undefined {
    return this.dir;
  }

  refusedOf(name: string): string[] {
    return [...(this.refused.get(name) ?? [])];
  }

  /** The server's proxy: its socket path (Linux) or port (macOS). */
  async at(name: string, hosts: string[]): Promise<string | number> {
    const rules = hosts.map(parseHostRule);
    const have = this.proxies.get(name);
    if (have) {
      have.proxy.setRules(rules);
      return have.at;
    }
    const proxy = new HostProxy({
      rules,
      ...(this.resolve ? { resolve: this.resolve } : {}),
      onRefused: (target, why) => this.noteRefused(name, target, why),
      // Not reaching a listed host is the network's business (debug), except when Airlock itself
      // could not judge the name (its interfaces unreadable, host-address.ts): that the user sees.
      onFailed: (target, err) =>
        this.logger[err.code === 'EINTERFACES' ? 'warn' : 'debug'](
          `local server network: could not connect to ${target}`,
          { server: name, target, code: err.code, reason: err.message },
        ),
    });
    let at: string | number;
    if (this.platform === 'darwin') at = await proxy.listen({ port: 0 });
    else {
      this.dir ??= mkdtempSync(join(tmpdir(), 'airlock-proxy-'));
      at = await proxy.listen({ path: join(this.dir, `${++this.count}.sock`) });
    }
    this.proxies.set(name, { proxy, at });
    return at;
  }

  async close(name: string): Promise<void> {
    const p = this.proxies.get(name);
    this.proxies.delete(name);
    await p?.proxy.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.proxies.keys()].map((n) => this.close(n)));
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  private noteRefused(name: string, target: string, why?: AddressRefusal): void {
    const set = this.refused.get(name) ?? new Set<string>();
    if (set.size < MAX_REFUSED) set.add(why ? `${target} (${why.advice})` : target);
    this.refused.set(name, set);
    // A listed host refused for its address: the rule, the address and what to do about it.
    if (why)
      this.logger.warn(`local server network refused: ${target} ${why.advice}`, {
        server: name,
        target,
        rule: why.rule,
        address: why.address,
        class: why.cls,
      });
    else this.logger.info('local server network refused', { server: name, target });
  }
}

/** What programs inside read to find the proxy (curl, Python, npm, uv; Node ≥ 22.21 with NODE_USE_ENV_PROXY). */
export function proxyEnv(at: string | number): Record<string, string> {
  const url = `http://127.0.0.1:${typeof at === 'number' ? at : FORWARDER_PORT}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NO_PROXY: '',
    no_proxy: '',
    NODE_USE_ENV_PROXY: '1',
  };
}
