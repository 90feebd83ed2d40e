/**
 * The first connection attempt of one remote server, as the registry's readiness gate: settled
 * when that attempt has finished, whatever its outcome (or the server was stopped).
 */
export class FirstAttempt {
  private readonly first: Promise<void>;
  private settleFirst!: () => void;
  private firstDone = false;

  constructor() {
    this.first = new Promise<void>((resolve) => (this.settleFirst = resolve)).then(
      () => void (this.firstDone = true),
    );
  }

  settle(): void {
    this.settleFirst();
  }

  /** Bounded wait for the first connection attempt: at most `capMs`. */
  ready(capMs: number): Promise<void> {
    // The registry asks on every call; after the first attempt this is an already-settled promise.
    if (this.firstDone) return this.first;
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, capMs);
      timer.unref();
    });
    return Promise.race([this.first, cap]).finally(() => clearTimeout(timer));
  }

  settled(): Promise<void> {
    return this.first;
  }
}
