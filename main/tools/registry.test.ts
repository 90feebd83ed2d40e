import { describe, expect, it, vi } from 'vitest';
import { ToolRegistry } from './registry.js';
import type { ToolDefinition, ToolSource } from './types.js';

function slowSource(
  id: string,
  tools: string[],
  readyAfter: Promise<void>,
): ToolSource & { loaded: boolean } {
  const defs: ToolDefinition[] = tools.map((name) => ({
    name,
    description: name,
    inputSchema: { type: 'object' },
  }));
  const src = {
    id,
    kind: 'test' as const,
    label: id,
    prefix: id,
    loaded: false,
    ready: () => readyAfter,
    status: () => ({ state: src.loaded ? ('ready' as const) : ('loading' as const) }),
    tools: () => (src.loaded ? defs : []),
    onChange: () => () => {},
    call: async () => ({ content: [] }),
  };
  void readyAfter.then(() => (src.loaded = true));
  return src;
}

describe('ToolRegistry readiness', () => {
  it('right after start, waits until every source has loaded', async () => {
    const registry = new ToolRegistry();
    let release!: () => void;
    const src = slowSource('slow', ['a', 'b'], new Promise((r) => (release = r)));
    registry.add(src);
    let done = false;
    const waiting = registry
      .whenReady()
      .then(() => registry.rebuild())
      .then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false); // still waiting for the source, not for a timer
    release();
    await waiting;
    expect(
      registry
        .entries()
        .map((e) => e.name)
        .sort(),
    ).toEqual(['slow__a', 'slow__b']);
  });

  it('a source that never loads delays the first list only up to the bound (5 s, on a fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const registry = new ToolRegistry();
      registry.add(slowSource('stuck', ['x'], new Promise(() => {})));
      let done = false;
      const ready = registry.whenReady().then(() => (done = true));
      await vi.advanceTimersByTimeAsync(4_999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await ready;
      expect(registry.entries()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('tool-set listeners fire only when names or schemas change', () => {
    const registry = new ToolRegistry();
    let fired = 0;
    registry.onToolsChanged(() => fired++);
    const src = slowSource('s', ['a'], Promise.resolve());
    src.loaded = true;
    registry.add(src);
    expect(fired).toBe(1);
    registry.rebuild();
    expect(fired).toBe(1);
  });
});
