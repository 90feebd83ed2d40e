import type { LookupFunction } from 'node:net';
import {
  ANYWHERE,
  connectionRule,
  guardedLookup,
  type AddressRule,
  type Resolver,
} from '../../http/address-guard.js';
import type { Target } from './host-rules.js';

/**
 * Where a listed host may lead (the host-list proxy's address guard). The list is checked on the
 * name, but the socket goes where DNS says: a listed domain that resolves — or is rebound — to
 * 127.0.0.1, the LAN or 169.254.169.254 (cloud metadata) gave a sandboxed server this computer's
 * loopback services and the network the sandbox was cut off from (security audit, wave 3).
 *
 * The remote servers' policy (address-guard.ts connectionRule), with the user's network refused
 * too: an IP literal or `localhost` in the list is the user's own choice and is reached as given;
 * a name may lead only to a public address — not to this computer, link-local or metadata
 * addresses, nor private or unique-local ones (a sandbox with a host list has no network of its
 * own; a LAN host is reached by listing its address). Judged in the socket's own `lookup`
 * (guardedLookup), so the address judged is the address connected to, IPv4-mapped, NAT64 and
 * every other spelling included (address-guard.ts classifyAddress, Node's BlockList).
 */
export function targetRule(target: Target): AddressRule {
  const given = connectionRule(`http://${target.host}/`);
  if (given === ANYWHERE) return ANYWHERE;
  return { refused: new Set([...given.refused, 'private']) };
}

/**
 * The `lookup` both of the proxy's connections take (the CONNECT tunnel's net.connect and the
 * plain forward's http.request). A literal is never looked up by node:net; `localhost` resolves
 * through `resolve` unguarded. A refusal fails the connection with an AddressRefused.
 */
export function targetLookup(target: Target, resolve: Resolver): LookupFunction {
  return guardedLookup(targetRule(target), resolve);
}
