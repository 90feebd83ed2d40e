/**
 * Holds refresh_token grants at FakeGoogle's token endpoint until the test releases them, so a
 * refresh stays in flight exactly as long as the test needs (e.g. until it has seen every
 * concurrent caller wait on it). An event, not a delay: a loaded machine cannot close the window
 * before the other callers arrive.
 */
export class RefreshHold {
  private open!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.open = resolve));
  private arrive!: () => void;
  /** Resolves once a refresh has reached the hold (and is waiting there). */
  readonly arrived = new Promise<void>((resolve) => (this.arrive = resolve));
  /** How many refreshes reached the hold. */
  held = 0;

  constructor(private readonly onRelease: () => void) {}

  /** Called by the token endpoint: counts the refresh, then waits for release(). */
  async pass(): Promise<void> {
    this.held += 1;
    this.arrive();
    await this.opened;
  }

  /** Lets every held refresh (and any later one) through; the fake stops holding. */
  release(): void {
    this.onRelease();
    this.open();
  }
}
