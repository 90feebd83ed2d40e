import { networkInterfaces } from 'node:os';
import { classifyAddress, type AddressClass } from '../main/remote/http/address-guard.js';

/**
 * An address of this computer's own network interfaces in the class given (address-guard.ts's
 * classifier), for tests that need a real listener "on the LAN" or "on the internet" without
 * either: a socket to one's own interface address stays on this computer. Link-local addresses
 * (which need a scope) and loopback are never picked. `undefined` when this computer has none.
 */
export function ownAddress(cls: AddressClass): { address: string; family: 4 | 6 } | undefined {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) {
      if (a.internal || a.address.startsWith('fe80:')) continue;
      if (classifyAddress(a.address) === cls)
        return { address: a.address, family: a.family === 'IPv6' ? 6 : 4 };
    }
  return undefined;
}
