import { templateMatches } from './protocol-runtime.js';
import { assignNames, sanitize } from './naming.js';
import type { Prompt, Resource, ResourceTemplate } from './features.js';
import type { ToolRegistry } from './registry.js';
import type { ToolSource } from './types.js';

/**
 * Resources, templates and prompts of every source under public names
 * (issue 14, item 1; docs/remote.md "Resources and prompts").
 *
 * - Prompts follow the tool naming rule (naming.ts): `<server>__<prompt>`,
 *   sanitized, bounded, collisions resolved by stable key.
 * - Resource URIs become `airlock://<server>/<original URI, verbatim>`. The
 *   original is kept unencoded so a template's `{variables}` still expand
 *   (RFC 6570) and the agent can read the original in the URI; the server key
 *   is the part before the first `/` after `airlock://`, so two servers with
 *   the same URIs never collide and a URI always resolves to its server.
 *   Sources without a prefix (Airlock's own) use their id, sanitized.
 * - A client that asks with a server's original name or URI still gets it
 *   when exactly one server has it (lists that URI, has a template matching
 *   it, or has that prompt name): clients that build URIs themselves, and
 *   the conformance suite, work through Airlock. An ambiguous one is refused
 *   with the namespaced form to use.
 */
export const AIRLOCK_URI_SCHEME = 'airlock://';

export interface PromptEntry {
  name: string;
  source: ToolSource;
  prompt: Prompt;
}

export interface ResolvedUri {
  source: ToolSource;
  uri: string;
}

export function serverKey(source: ToolSource): string {
  return sanitize(source.prefix || source.id);
}

export function publicUri(source: ToolSource, uri: string): string {
  return `${AIRLOCK_URI_SCHEME}${serverKey(source)}/${uri}`;
}

export class FeatureCatalog {
  constructor(private readonly registry: ToolRegistry) {}

  sources(): ToolSource[] {
    return this.registry.listSources();
  }

  /**
   * A public URI's server and original URI, or undefined for URIs Airlock did not hand out.
   * `agent`: an original URI is looked up in what that agent lists (FeatureSource.resources).
   */
  resolveUri(uri: string, agent?: string): ResolvedUri | undefined {
    if (!uri.startsWith(AIRLOCK_URI_SCHEME)) return this.resolveOriginal(uri, agent);
    const rest = uri.slice(AIRLOCK_URI_SCHEME.length);
    const slash = rest.indexOf('/');
    if (slash <= 0) return undefined;
    const key = rest.slice(0, slash);
    const source = this.sources().find((s) => serverKey(s) === key);
    return source && { source, uri: rest.slice(slash + 1) };
  }

  /** An original (un-namespaced) URI: the one server listing it, else the one whose template matches. */
  private resolveOriginal(uri: string, agent: string | undefined): ResolvedUri | undefined {
    const sources = this.sources();
    const listing = sources.filter((s) => s.resources?.(agent).some((r) => r.uri === uri));
    if (listing.length === 1) return { source: listing[0]!, uri };
    if (listing.length > 1) return undefined;
    const matching = sources.filter((s) =>
      s.resourceTemplates?.(agent).some((t) => matchesTemplate(t.uriTemplate, uri)),
    );
    return matching.length === 1 ? { source: matching[0]!, uri } : undefined;
  }

  /** `agent`: that agent's lists (FeatureSource.resources); without: what every agent shares. */
  resources(visible: (s: ToolSource) => boolean = () => true, agent?: string): Resource[] {
    return this.sources()
      .filter(visible)
      .flatMap((s) =>
        (s.resources?.(agent) ?? []).map((r) => ({ ...r, uri: publicUri(s, r.uri) })),
      );
  }

  resourceTemplates(
    visible: (s: ToolSource) => boolean = () => true,
    agent?: string,
  ): ResourceTemplate[] {
    return this.sources()
      .filter(visible)
      .flatMap((s) =>
        (s.resourceTemplates?.(agent) ?? []).map((t) => ({
          ...t,
          uriTemplate: publicUri(s, t.uriTemplate),
        })),
      );
  }

  prompts(agent?: string): PromptEntry[] {
    const all = this.sources().flatMap((source) =>
      (source.prompts?.(agent) ?? []).map((prompt) => ({
        key: `${source.id}/${prompt.name}`,
        source,
        prompt,
      })),
    );
    const names = assignNames(
      all.map((p) => ({ key: p.key, prefix: p.source.prefix, tool: p.prompt.name })),
    );
    return all.map((p) => ({ name: names.get(p.key)!, source: p.source, prompt: p.prompt }));
  }

  prompt(name: string, agent?: string): PromptEntry | undefined {
    const all = this.prompts(agent);
    const exact = all.find((p) => p.name === name);
    if (exact) return exact;
    const original = all.filter((p) => p.prompt.name === name);
    return original.length === 1 ? original[0] : undefined;
  }
}

function matchesTemplate(template: string, uri: string): boolean {
  try {
    return templateMatches(template, uri);
  } catch {
    return false;
  }
}
