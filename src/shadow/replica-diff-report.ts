import { DiffBook, REPORT_JUDGEMENT, type DiffReport, type ReportWindow, type RouteDelta, reportOf } from './diff-book.js';
import type { FleetDiffReport } from './fleet-diff-report.js';

// how often a replica sends what it booked to the fleet's diff report
const FLUSH_MS = 1_000;
// batches kept while the fleet's report does not take them: a minute of them
const KEEP_BATCHES = 60;

export interface ReplicaDiffReportOptions {
  sampleValues: boolean;
  /** with a fleet: the report every replica adds to (else this replica's own) */
  fleet: FleetDiffReport | undefined;
  /** the operators' last reset in force here (a moment), if any */
  resetAt(): number | undefined;
}

/**
 * The diff report as a replica keeps it: what it books, sent every second to the fleet's report
 * (kept while Redis is away), and an operator's reset followed. A reset is a change of the control
 * state: each replica clears its own book the moment it holds a state with a newer one, and the
 * fleet's report (which takes a reset once) until that is done: a clear Redis missed is made again
 * at the next flush.
 */
export class ReplicaDiffReport {
  /** what the shadow reads and write checks book */
  readonly book: DiffBook;
  private readonly unsent: DiffBook | undefined;
  private unsentBatches: RouteDelta[][] = [];
  // this replica's report began when it started, or at the operators' last reset
  private since = Date.now();
  private resetSeen: number;
  private fleetResetSeen: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: ReplicaDiffReportOptions) {
    this.unsent = opts.fleet ? new DiffBook({ sampleValues: opts.sampleValues }) : undefined;
    this.book = new DiffBook({ sampleValues: opts.sampleValues, ...(this.unsent ? { also: this.unsent } : {}) });
    this.resetSeen = opts.resetAt() ?? 0;
    this.fleetResetSeen = this.resetSeen;
  }

  /** Sends to the fleet's report every second (with a fleet). */
  start(): void {
    if (!this.opts.fleet || this.timer) return;
    this.timer = setInterval(() => void this.send(), FLUSH_MS);
    this.timer.unref();
  }

  /** Stops the sending, after a last send. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.send();
  }

  /** Clears what an operator's reset newer than the last one seen asks to. */
  async followReset(): Promise<void> {
    const at = this.opts.resetAt();
    if (at === undefined) return;
    if (at > this.resetSeen) {
      this.resetSeen = at;
      this.book.reset();
      this.unsent?.reset();
      this.unsentBatches = [];
      this.since = at;
    }
    if (this.opts.fleet && at > this.fleetResetSeen) {
      await this.opts.fleet.reset(at);
      this.fleetResetSeen = Math.max(this.fleetResetSeen, at);
    }
  }

  /** The report (the fleet's, with one) over a window. */
  async report(window?: ReportWindow): Promise<DiffReport> {
    await this.followReset();
    const { fleet } = this.opts;
    return fleet ? reportOf(await fleet.routes(window)) : this.book.report(REPORT_JUDGEMENT, window);
  }

  /** When the report began. */
  async startedAt(): Promise<number> {
    await this.followReset();
    const { fleet } = this.opts;
    return fleet ? ((await fleet.since()) ?? this.since) : this.since;
  }

  private async send(): Promise<void> {
    const { fleet } = this.opts;
    if (!fleet || !this.unsent) return;
    try {
      await this.followReset();
      this.unsentBatches = [...this.unsentBatches, this.unsent.drain()].slice(-KEEP_BATCHES);
      await fleet.add(this.unsentBatches.flat());
      this.unsentBatches = [];
    } catch {
      // Redis away: sent with the next flush
    }
  }
}
