import { describe, expect, it } from 'vitest';
import { FeatureCatalog } from './feature-catalog.js';
import { ToolRegistry } from './registry.js';
import { promptWithPublicLinks, withPublicLinks } from './resource-links.js';
import type { CallToolResult, ToolSource } from './types.js';

function source(id: string, reads = true): ToolSource {
  return {
    id,
    kind: 'test',
    label: id,
    prefix: id,
    ready: async () => {},
    status: () => ({ state: 'ready' }),
    tools: () => [],
    onChange: () => () => {},
    call: async () => ({ content: [] }),
    ...(reads ? { readResource: async () => ({ contents: [] }) } : {}),
  };
}

const link = (uri: string) => ({ type: 'resource_link' as const, name: 'n', uri });

describe('withPublicLinks', () => {
  const alpha = source('alpha');
  const beta = source('beta');
  const registry = new ToolRegistry();
  registry.add(alpha);
  registry.add(beta);
  const catalog = new FeatureCatalog(registry);

  it('prefixes every link with its real server, even one that already names another server, and each resolves back to it', () => {
    const odd = [
      'airlock://alpha/secret://x',
      'airlock://alpha/',
      '',
      '../alpha/x',
      'a/b/../../c',
      'file:///%2e%2e/%2Fetc',
      'x'.repeat(10_000),
    ];
    const r = withPublicLinks({ content: odd.map(link) }, beta);
    for (const [i, b] of r.content.entries()) {
      const uri = (b as { uri: string }).uri;
      expect(uri).toBe(`airlock://beta/${odd[i]}`);
      const back = catalog.resolveUri(uri);
      expect(back?.source).toBe(beta);
      expect(back?.uri).toBe(odd[i]);
    }
  });

  it('rewrites embedded resources and prompt messages, and leaves text and structuredContent as the server wrote them', () => {
    const result: CallToolResult = {
      content: [
        { type: 'text', text: 'see demo://a' },
        { type: 'resource', resource: { uri: 'demo://a', text: 'A' } },
      ],
      structuredContent: { uri: 'demo://a' },
      _meta: { kept: true },
    };
    expect(withPublicLinks(result, alpha)).toEqual({
      ...result,
      content: [
        { type: 'text', text: 'see demo://a' },
        { type: 'resource', resource: { uri: 'airlock://alpha/demo://a', text: 'A' } },
      ],
    });
    const p = promptWithPublicLinks(
      {
        messages: [
          { role: 'user', content: { type: 'text', text: 't' } },
          { role: 'user', content: link('demo://b') },
        ],
      },
      beta,
    );
    expect(p.messages[1]!.content).toEqual(link('airlock://beta/demo://b'));
  });

  it('returns the same result when nothing names a resource, or the source serves no resources (Google, built-in)', () => {
    const plain: CallToolResult = { content: [{ type: 'text', text: 'demo://a' }] };
    expect(withPublicLinks(plain, alpha)).toBe(plain);
    const linked: CallToolResult = { content: [link('demo://a')] };
    expect(withPublicLinks(linked, source('google', false))).toBe(linked);
  });
});
