import { randomUUID } from 'node:crypto';

/**
 * Sends a replica's counts to the fleet's counters exactly once. A send that failed may still be
 * applied (a stalled Redis runs it when it wakes), so it is sent again under the same id, which the
 * counters add once, before anything newer; what is counted meanwhile waits with its caller, merged.
 */
export class SendOnce<C> {
  private doubt: { id: string; counts: C[] } | undefined;

  constructor(private readonly counters: { add(counts: readonly C[], keepMs: number, batch: string): Promise<void> }) {}

  /** Whether a send is in doubt (to be sent again). */
  get owed(): boolean {
    return this.doubt !== undefined;
  }

  /** How many counts a send in doubt holds. */
  get inDoubt(): number {
    return this.doubt?.counts.length ?? 0;
  }

  /** Whether counts matching `which` are in the send in doubt. */
  holds(which: (c: C) => boolean): boolean {
    return this.doubt?.counts.some(which) ?? false;
  }

  /** The send in doubt again, then what `take` gives (taken only once that one is through); throws when a send fails. */
  async send(take: () => C[], keepMs: number): Promise<void> {
    if (this.doubt) {
      await this.counters.add(this.doubt.counts, keepMs, this.doubt.id);
      this.doubt = undefined;
    }
    const counts = take();
    if (counts.length === 0) return;
    this.doubt = { id: randomUUID(), counts };
    await this.counters.add(counts, keepMs, this.doubt.id);
    this.doubt = undefined;
  }
}
