import type { Server } from '@modelcontextprotocol/server';
import { FakeUpstream } from './fake-upstream.js';

/**
 * An upstream with the resources, prompts, completion and logging the MCP
 * conformance suite's server scenarios ask for by name (`test://static-text`,
 * `test_simple_prompt`, …), so those scenarios can run against Airlock with
 * this server behind it (issue 14, "Must hold").
 */
const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

function extend(server: Server): void {
  const text = (uri: string, t: string) => ({ uri, mimeType: 'text/plain', text: t });
  server.setRequestHandler('resources/list', async () => ({
    resources: [
      { uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain' },
      { uri: 'test://static-binary', name: 'static-binary', mimeType: 'image/png' },
      { uri: 'test://watched-resource', name: 'watched-resource', mimeType: 'text/plain' },
    ],
  }));
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'template' }],
  }));
  server.setRequestHandler('resources/read', async (req) => {
    const uri = req.params.uri;
    if (uri === 'test://static-binary')
      return { contents: [{ uri, mimeType: 'image/png', blob: PNG_1PX }] };
    const m = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
    if (m) return { contents: [text(uri, `data for ${m[1]}`)] };
    return { contents: [text(uri, `content of ${uri}`)] };
  });
  server.setRequestHandler('resources/subscribe', async () => ({}));
  server.setRequestHandler('resources/unsubscribe', async () => ({}));
  server.setRequestHandler('prompts/list', async () => ({
    prompts: [
      { name: 'test_simple_prompt', description: 'A simple prompt' },
      {
        name: 'test_prompt_with_arguments',
        description: 'A prompt with arguments',
        arguments: [
          { name: 'arg1', required: true },
          { name: 'arg2', required: true },
        ],
      },
      {
        name: 'test_prompt_with_embedded_resource',
        description: 'A prompt with an embedded resource',
        arguments: [{ name: 'resourceUri', required: true }],
      },
      { name: 'test_prompt_with_image', description: 'A prompt with an image' },
    ],
  }));
  server.setRequestHandler('prompts/get', async (req) => {
    const a = req.params.arguments ?? {};
    switch (req.params.name) {
      case 'test_simple_prompt':
        return { messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }] };
      case 'test_prompt_with_arguments':
        return {
          messages: [
            { role: 'user', content: { type: 'text', text: `Args: ${a.arg1} and ${a.arg2}` } },
          ],
        };
      case 'test_prompt_with_embedded_resource':
        return {
          messages: [
            {
              role: 'user',
              content: {
                type: 'resource',
                resource: text(a.resourceUri ?? 'test://x', 'embedded'),
              },
            },
          ],
        };
      default:
        return {
          messages: [
            { role: 'user', content: { type: 'image', data: PNG_1PX, mimeType: 'image/png' } },
          ],
        };
    }
  });
  server.setRequestHandler('completion/complete', async (req) => ({
    completion: {
      values: ['test-value-1', 'test-value-2'].filter((v) =>
        v.startsWith(req.params.argument.value),
      ),
      hasMore: false,
    },
  }));
}

export function conformanceUpstream(): FakeUpstream {
  return new FakeUpstream({
    name: 'conformance-upstream',
    tools: [{ name: 'noop', annotations: { readOnlyHint: true } }],
    capabilities: {
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    },
    extend,
  });
}
