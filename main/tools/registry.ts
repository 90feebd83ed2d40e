import { assignNames, baseName } from './naming.js';
import type { ToolDefinition, ToolSource } from './types.js';

export interface ToolEntry {
  /** Public name agents call. */
  name: string;
  /** Stable key `source/tool`; settings are stored under it. */
  key: string;
  source: ToolSource;
  def: ToolDefinition;
}

export interface RegistryOptions {
  /** Bound on how long the first tools/list waits for slow sources. */
  readyTimeoutMs?: number;
}

/**
 * Every source's tools under public names. The snapshot is rebuilt when a
 * source changes and swapped in whole, so a reader never sees a half-built
 * set (issue 4, "hot reload": the previous set stays live until the new one
 * is built).
 */
export class ToolRegistry {
  private readonly sources = new Map<string, { source: ToolSource; off: () => void }>();
  private byName = new Map<string, ToolEntry>();
  private byKey = new Map<string, ToolEntry>();
  private fingerprint = '';
  private readonly listeners = new Set<() => void>();
  private readonly readyTimeoutMs: number;
  private allReady = false;

  constructor(options: RegistryOptions = {}) {
    this.readyTimeoutMs = options.readyTimeoutMs ?? 5000;
  }

  add(source: ToolSource): void {
    if (this.sources.has(source.id)) throw new Error(`A source named ${source.id} already exists`);
    const off = source.onChange(() => this.rebuild());
    // Sources added after start-up readiness never hold up other calls (issue 4, isolation).
    this.sources.set(source.id, { source, off });
    this.rebuild();
  }

  async remove(id: string): Promise<void> {
    const found = this.sources.get(id);
    if (!found) return;
    found.off();
    this.sources.delete(id);
    this.rebuild();
    await found.source.stop?.();
  }

  listSources(): ToolSource[] {
    return [...this.sources.values()].map((s) => s.source);
  }

  /** Every source of start-up has loaded: `whenReady()` has nothing to wait for (no await needed). */
  get ready(): boolean {
    return this.allReady;
  }

  /** Waits (bounded) until every source has loaded, so agents never see a half-empty surface. */
  async whenReady(): Promise<void> {
    // Hot path: once every current source has loaded, there is nothing to wait for.
    if (this.allReady) return;
    const sources = this.listSources();
    const all = Promise.allSettled(sources.map((s) => s.ready())).then(() => {
      this.allReady = true;
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.readyTimeoutMs);
      timer.unref();
    });
    await Promise.race([all, timeout]);
    clearTimeout(timer);
  }

  entries(): ToolEntry[] {
    return [...this.byName.values()];
  }

  get(name: string): ToolEntry | undefined {
    return this.byName.get(name);
  }

  /**
   * The source a public name belongs to when that source is down and so lists
   * no tools: a call then gets "unavailable … nothing was sent", not "Unknown
   * tool" (issue 14, item 5).
   */
  downSourceFor(name: string): ToolSource | undefined {
    for (const { source } of this.sources.values()) {
      if (!source.prefix || source.status().state === 'ready') continue;
      if (name.startsWith(`${baseName(source.prefix, '')}`)) return source;
    }
    return undefined;
  }

  getByKey(key: string): ToolEntry | undefined {
    return this.byKey.get(key);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Public for sources whose definitions change without their own event. */
  rebuild(): void {
    const defs: { key: string; source: ToolSource; def: ToolDefinition }[] = [];
    for (const { source } of this.sources.values()) {
      for (const def of source.tools()) defs.push({ key: `${source.id}/${def.name}`, source, def });
    }
    const names = assignNames(
      defs.map((d) => ({ key: d.key, prefix: d.source.prefix, tool: d.def.name })),
    );
    const byName = new Map<string, ToolEntry>();
    const byKey = new Map<string, ToolEntry>();
    for (const d of defs) {
      const entry: ToolEntry = {
        name: names.get(d.key)!,
        key: d.key,
        source: d.source,
        def: d.def,
      };
      byName.set(entry.name, entry);
      byKey.set(entry.key, entry);
    }
    const fingerprint = JSON.stringify(
      [...byName.values()].map((e) => [
        e.name,
        e.def.description,
        e.def.inputSchema,
        e.def.annotations,
        e.def.icons,
        e.def._meta,
        e.def.execution,
        e.def.unavailable,
      ]),
    );
    this.byName = byName;
    this.byKey = byKey;
    // Sources also fire onChange for status-only changes; tell listeners either way.
    const toolsChanged = fingerprint !== this.fingerprint;
    this.fingerprint = fingerprint;
    for (const l of this.listeners) l();
    if (toolsChanged) for (const l of this.toolListeners) l();
  }

  private readonly toolListeners = new Set<() => void>();

  /** Fires only when the public tool set (names, descriptions, schemas) changed. */
  onToolsChanged(listener: () => void): () => void {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
  }
}
