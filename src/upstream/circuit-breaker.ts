export interface BreakerOptions {
  /** how far back failures are counted, in milliseconds */
  windowMs: number;
  /** attempts the window must hold before it may open */
  minAttempts: number;
  /** share of failed attempts in the window that opens it */
  failureRatio: number;
  /** while open, one trial attempt goes out every this many milliseconds */
  openMs: number;
  now?: () => number;
}

export type BreakerState = 'closed' | 'open';

/** The error of an attempt refused because the backend is known to be down. */
export class CircuitOpenError extends Error {
  readonly code = 'V2PROXY_CIRCUIT_OPEN';
  constructor() {
    super('circuit open: the backend failed too often just now');
  }
}

/**
 * A failure-ratio circuit breaker over a sliding window of attempts. While open, attempts fail at
 * once (no socket, no wait), except one trial attempt every `openMs`: the first trial that gets an
 * answer closes it. A trial stuck on a hung backend does not hold up the next one, so recovery
 * takes at most `openMs` plus one round trip. A steady share of failures below the ratio (a flaky
 * backend) never opens it.
 */
export class CircuitBreaker {
  private state: BreakerState = 'closed';
  private lastTrialAt = 0;
  // the window as ten slots of counts, so recording is O(1) at any rate
  private readonly slots = Array.from({ length: 10 }, () => ({ slot: -1, attempts: 0, failures: 0 }));
  private readonly now: () => number;

  constructor(
    private readonly opts: BreakerOptions,
    private readonly onChange: (state: BreakerState) => void = () => {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  current(): BreakerState {
    return this.state;
  }

  /** Whether an attempt may go out now: 'go', 'trial' (open, and a trial is due) or 'refuse'. */
  admit(): 'go' | 'trial' | 'refuse' {
    if (this.state === 'closed') return 'go';
    const at = this.now();
    if (at - this.lastTrialAt < this.opts.openMs) return 'refuse';
    this.lastTrialAt = at;
    return 'trial';
  }

  /** How an attempt ended: failed, answered, or `undefined` when it says nothing of the backend. */
  record(failed: boolean | undefined, trial: boolean): void {
    if (failed === undefined) return;
    if (this.state === 'open') {
      if (trial && !failed) this.move('closed');
      return;
    }
    const slotMs = this.opts.windowMs / this.slots.length;
    const slot = Math.floor(this.now() / slotMs);
    const here = this.slots[slot % this.slots.length] as { slot: number; attempts: number; failures: number };
    if (here.slot !== slot) Object.assign(here, { slot, attempts: 0, failures: 0 });
    here.attempts += 1;
    if (failed) here.failures += 1;
    let attempts = 0;
    let failures = 0;
    for (const s of this.slots) {
      if (s.slot <= slot - this.slots.length) continue;
      attempts += s.attempts;
      failures += s.failures;
    }
    if (attempts >= this.opts.minAttempts && failures / attempts >= this.opts.failureRatio) {
      for (const s of this.slots) Object.assign(s, { slot: -1, attempts: 0, failures: 0 });
      this.lastTrialAt = this.now();
      this.move('open');
    }
  }

  private move(state: BreakerState): void {
    if (this.state === state) return;
    this.state = state;
    this.onChange(state);
  }
}
