// how long shadow work waits for a quiet moment, at most (a few milliseconds: it never waits long)
const QUIET_WAIT_MS = 5;

/**
 * Knows how many client requests are in flight, and lets shadow work wait for a moment with none
 * (at most `maxWaitMs`), so a shadow's parsing and comparing stays off the next request's path.
 * A waiter is held only while it waits: one whose time ran out is gone from the gate, so under
 * steady load (never a quiet moment) the gate holds no more than the waits under way.
 */
export class QuietGate {
  private active = 0;
  private readonly waiters = new Set<() => void>();

  enter(): void {
    this.active += 1;
  }

  leave(): void {
    this.active = Math.max(0, this.active - 1);
    if (this.active === 0 && this.waiters.size > 0) {
      const ready = [...this.waiters];
      this.waiters.clear();
      for (const resolve of ready) setImmediate(resolve);
    }
  }

  /** Waits held now (what a test of the gate reads). */
  get waiting(): number {
    return this.waiters.size;
  }

  wait(maxWaitMs: number = QUIET_WAIT_MS): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const woken = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(woken);
        resolve();
      }, maxWaitMs);
      this.waiters.add(woken);
    });
  }
}
