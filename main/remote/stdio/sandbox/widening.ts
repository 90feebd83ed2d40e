import type { SandboxPermissions } from '../../../../common/contract/index.js';
import { realish, within } from './protected-paths.js';

/**
 * What `next` lets a local server do that `cur` does not (issue 35 with issue 17.7), in words:
 * folders outside what it had, more network, running without a sandbox. Both come from
 * `applySandboxInput` (the change as updateRemote applies it), and folders are compared as the
 * launcher binds them — by their real paths — so `project/../other` or a link inside a granted
 * folder that points out of it counts as what it reaches. Any doubt counts as wider.
 */
export function sandboxWidening(
  cur: SandboxPermissions,
  next: SandboxPermissions,
  platform: NodeJS.Platform = process.platform,
): string[] {
  const inside = (p: string, roots: readonly string[]) =>
    roots.some((r) => within(realish(p), realish(r), platform));
  const out: string[] = [];
  for (const p of next.read) if (!inside(p, [...cur.read, ...cur.write])) out.push(`read ${p}`);
  for (const p of next.write) if (!inside(p, cur.write)) out.push(`read and write ${p}`);
  if (next.network === 'any' && cur.network !== 'any') out.push('reach any host');
  if (next.network === 'hosts' && cur.network !== 'any') {
    const had = cur.network === 'hosts' ? cur.hosts : [];
    const more = next.hosts.filter((h) => !had.includes(h));
    if (more.length) out.push(`reach ${more.join(', ')}`);
  }
  if (next.allowUnsandboxed && !cur.allowUnsandboxed) out.push('run without a sandbox');
  return out;
}
