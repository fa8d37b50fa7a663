/**
 * Knows how many client requests are in flight, and lets shadow work wait for a moment with none
 * (at most `maxWaitMs`), so a shadow's parsing and comparing stays off the next request's path.
 */
export class QuietGate {
  private active = 0;
  private waiters: (() => void)[] = [];

  enter(): void {
    this.active += 1;
  }

  leave(): void {
    this.active = Math.max(0, this.active - 1);
    if (this.active === 0 && this.waiters.length > 0) {
      const ready = this.waiters;
      this.waiters = [];
      for (const resolve of ready) setImmediate(resolve);
    }
  }

  wait(maxWaitMs: number): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxWaitMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
