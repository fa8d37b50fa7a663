import { ApiError } from '../errors/api-error.js';
import { stopOf } from '../errors/request-outcome.js';
import { type ComparedAnswer, compareAnswers } from './compare-answers.js';
import type { DiffBook, Thresholds } from './diff-book.js';

export type Side = 'translate' | 'native';

/** An answer of a side that failed (5xx): it is counted as the side's error, not compared. */
export const failedAnswer = (a: ComparedAnswer) => a.status >= 500;
export type ShadowOutcome = 'match' | 'differ' | 'error' | 'skipped';

export interface ShadowJob {
  resource: string;
  operation: string;
  /** the side that served the client, and what it answered */
  served: Side;
  /** what the serving side answered (read when the comparison runs) */
  primary: () => ComparedAnswer;
  requestId: string;
  url: string;
  ignore: readonly string[];
  thresholds: Thresholds;
  /** also ask the serving side a second time (the noise baseline) */
  noise: boolean;
  /** one read of the same request from a side, with the caller's own credentials */
  call(side: Side): Promise<ComparedAnswer>;
  /** after the comparison: a reported difference (the guard), any difference and the noise arm's (the analysis) */
  compared?(outcome: { reported: boolean; unequal: boolean; noise: boolean | null }): void;
}

/**
 * Runs shadow reads off the response path: at most `maxInflight` at once (beyond that a shadow is
 * skipped and counted), each compared with the client's answer and booked; a shadow's result never
 * reaches the caller.
 */
export class ShadowRunner {
  private running = 0;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly opts: {
      maxInflight: number;
      book: DiffBook;
      outcome: (resource: string, operation: string, outcome: ShadowOutcome) => void;
      /** wait this long after the client's answer before starting (default 0) */
      startDelayMs?: number;
    },
  ) {}

  skip(resource: string, operation: string): void {
    this.opts.book.skipped(resource, operation);
    this.opts.outcome(resource, operation, 'skipped');
  }

  /** Starts a shadow read unless too many are running; never throws, never waits. */
  submit(job: ShadowJob): boolean {
    if (this.running >= this.opts.maxInflight) {
      this.skip(job.resource, job.operation);
      return false;
    }
    this.running += 1;
    const run = this.run(job).finally(() => {
      this.running -= 1;
      this.pending.delete(run);
    });
    this.pending.add(run);
    return true;
  }

  private async run(job: ShadowJob): Promise<void> {
    const { book } = this.opts;
    // let the client take its answer first: on a small machine the shadow's work would compete with it
    if (this.opts.startDelayMs) await new Promise((resolve) => setTimeout(resolve, this.opts.startDelayMs));
    const other: Side = job.served === 'native' ? 'translate' : 'native';
    let secondary: ComparedAnswer;
    let again: ComparedAnswer | undefined;
    try {
      [secondary, again] = await Promise.all([job.call(other), job.noise ? job.call(job.served) : Promise.resolve(undefined)]);
    } catch (err) {
      // stopped by the drain: no side failed, nothing was compared
      if (err instanceof ApiError && stopOf(err.entry)) {
        this.skip(job.resource, job.operation);
        return;
      }
      book.error(job.resource, job.operation);
      this.opts.outcome(job.resource, job.operation, 'error');
      return;
    }
    const primary = job.primary();
    // a side that failed says nothing of the data: an error, never a difference
    if (failedAnswer(primary) || failedAnswer(secondary)) {
      book.error(job.resource, job.operation);
      this.opts.outcome(job.resource, job.operation, 'error');
      return;
    }
    let noise: boolean | null = null;
    if (again && !failedAnswer(again)) {
      const noiseDiffs = compareAnswers(primary, again, job.ignore);
      book.noise(job.resource, job.operation, noiseDiffs);
      noise = noiseDiffs.length > 0;
    }
    const diffs = compareAnswers(primary, secondary, job.ignore);
    const reported = book.compared(job.resource, job.operation, job.thresholds, { requestId: job.requestId, url: job.url }, diffs);
    this.opts.outcome(job.resource, job.operation, reported ? 'differ' : 'match');
    job.compared?.({ reported, unequal: diffs.length > 0, noise });
  }

  /** Resolves when every running shadow has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
