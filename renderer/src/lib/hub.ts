import type { CoreEvent } from '../../../common/contract';

type Listener = (event: CoreEvent) => void;

/**
 * One subscription to core events, fanned out to every component that
 * listens, plus the live-connection flag (for "reconnecting…" and refetch).
 */
export class EventHub {
  private readonly listeners = new Set<Listener>();
  private readonly stateListeners = new Set<() => void>();
  private live = false;
  /** Bumped on every false → true transition, so views can refetch what they missed. */
  private generation = 0;

  emit = (event: CoreEvent): void => {
    for (const l of [...this.listeners]) l(event);
  };

  setConnected = (connected: boolean): void => {
    if (connected === this.live) return;
    this.live = connected;
    if (connected) this.generation++;
    for (const l of [...this.stateListeners]) l();
  };

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  subscribeState = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  get connected(): boolean {
    return this.live;
  }

  get connections(): number {
    return this.generation;
  }
}
