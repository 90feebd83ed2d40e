import { EventEmitter } from 'node:events';
import type { CoreEvent } from '../../common/contract/index.js';

/** The core's one event stream; UIs (SSE, IPC) and the shell subscribe to it. */
export class CoreEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  emit(event: CoreEvent): void {
    this.emitter.emit('event', event);
  }

  subscribe(listener: (event: CoreEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
