import { type ComparedAnswer, compareAnswers } from './compare-answers.js';
import type { Thresholds } from './diff-book.js';
import type { Side } from './shadow-runner.js';
import { failedAnswer } from './shadow-runner.js';
import type { WriteBook, WriteCheck, WriteChecked } from './write-book.js';
import { checkAnswer, checkIntent, versionOf, type WriteIntent, type WriteOperation } from './write-intent.js';

export type VerifyOutcome = 'match' | 'differ' | 'unverified' | 'error' | 'skipped';

/** One answered write to verify: what it asked and answered, and how to read its resource back. */
export interface WriteJob {
  resource: string;
  operation: WriteOperation;
  /** the side that served the write */
  served: Side;
  /** the resource written (`groups/<uid>`): a later write to it supersedes this one */
  key: string;
  requestId: string;
  /** the write as a sample names it (`PATCH /iam/v2beta1/groups/…`) */
  url: string;
  intent: WriteIntent;
  /** what the write answered (create, update) */
  answer: unknown;
  /** the resource as the serving side showed it just before an update (made when the check runs) */
  before?: (() => Promise<unknown>) | undefined;
  /** a generation of the resource this write's own answer made (from `begin` and `wrote`) */
  generation: number;
  ignore: readonly string[];
  /** fields that move with every write (output times): left out of the unchanged check */
  moving: readonly string[];
  /** fields only a create's answer shows (an invite's code): left out of the answer check */
  answerOnly: readonly string[];
  thresholds: Thresholds;
  /** also read the serving side twice: the other-side check's noise arm */
  noise: boolean;
  /** a Get of the resource through a side, with the writer's credentials */
  read(side: Side): Promise<ComparedAnswer>;
  /** after the checks: whether any found a difference (the analysis' write diff check) */
  verified?(differed: boolean): void;
}

export interface WriteVerifierOptions {
  maxInflight: number;
  /** wait this long after the write's answer (and between retries) before reading back */
  delayMs: number;
  /** a resource still changing is looked at this many times more, then counted as unverified */
  retries: number;
  book: WriteBook;
  /** how a verification ended, and for a difference the checks that found it */
  outcome(resource: string, operation: string, outcome: VerifyOutcome, failing?: readonly WriteCheck[]): void;
  /** resolves at a moment without client requests (the shadow's quiet gate) */
  quiet?: () => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
}

const other = (side: Side): Side => (side === 'native' ? 'translate' : 'native');

/**
 * Verifies sampled writes off the request path: after a quiet moment it reads the written resource
 * back through the side that served it (and again for the noise arm) and through the other side,
 * and checks the write's intent, its answer, and the other side. Only reads: nothing is written. A
 * write overtaken by a later one to the same resource (seen here, or by its version moving) is
 * checked against the other side only, once no write lands during its reads; one that never holds
 * still through the retries is unverified, never a difference. At most `maxInflight` run at once:
 * beyond that a write is skipped and counted.
 */
export class WriteVerifier {
  private running = 0;
  private readonly pending = new Set<Promise<void>>();
  // resource → its writes seen here, for the resources with a verification pending
  private readonly generations = new Map<string, { generation: number; holders: number }>();

  constructor(private readonly opts: WriteVerifierOptions) {}

  /** Holds a resource's generation for a write about to be verified; its `end` lets it go. */
  begin(key: string): number {
    const g = this.generations.get(key) ?? { generation: 0, holders: 0 };
    g.holders += 1;
    this.generations.set(key, g);
    return g.generation;
  }

  end(key: string): void {
    const g = this.generations.get(key);
    if (!g) return;
    g.holders -= 1;
    if (g.holders <= 0) this.generations.delete(key);
  }

  /** A write to a resource answered (any write, verified or not): its held generation moves on. */
  wrote(key: string): void {
    const g = this.generations.get(key);
    if (g) g.generation += 1;
  }

  generation(key: string): number {
    return this.generations.get(key)?.generation ?? 0;
  }

  /** A sampled write not verified (over the bound): counted. */
  skip(resource: string, operation: string): void {
    this.opts.book.skipped(resource, operation);
    this.opts.outcome(resource, operation, 'skipped');
  }

  /** Starts a verification unless too many run (its generation held by `begin` is let go when it ends); never throws, never waits. */
  submit(job: WriteJob): boolean {
    if (this.running >= this.opts.maxInflight) {
      this.end(job.key);
      this.skip(job.resource, job.operation);
      return false;
    }
    this.running += 1;
    const run = this.run(job)
      .catch(() => this.finish(job, 'error'))
      .finally(() => {
        this.running -= 1;
        this.end(job.key);
        this.pending.delete(run);
      });
    this.pending.add(run);
    return true;
  }

  private finish(job: WriteJob, outcome: 'error' | 'unverified'): void {
    if (outcome === 'error') this.opts.book.error(job.resource, job.operation);
    else this.opts.book.unverified(job.resource, job.operation);
    this.opts.outcome(job.resource, job.operation, outcome);
  }

  private async pause(): Promise<void> {
    const sleep = this.opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    await sleep(this.opts.delayMs);
    await this.opts.quiet?.();
  }

  private async run(job: WriteJob): Promise<void> {
    let superseded = false;
    for (let look = 0; look <= this.opts.retries; look += 1) {
      await this.pause();
      const before = this.generation(job.key);
      if (before !== job.generation) superseded = true;
      const [served, otherSide, again] = await Promise.all([
        job.read(job.served),
        job.read(other(job.served)),
        job.noise ? job.read(job.served) : Promise.resolve(undefined),
      ]);
      // a side that failed says nothing of the data
      if (failedAnswer(served) || failedAnswer(otherSide)) {
        this.finish(job, 'error');
        return;
      }
      // written here while it was read: look again
      if (this.generation(job.key) !== before) continue;
      // written elsewhere since its answer (its version moved): the write is overtaken, look again
      if (!superseded && job.operation !== 'delete' && versionOf(served.body) !== versionOf(job.answer)) {
        superseded = true;
        continue;
      }
      const preImage = superseded || !job.before ? undefined : await job.before();
      this.judge(job, superseded, served, otherSide, again, preImage);
      return;
    }
    this.finish(job, 'unverified');
  }

  private judge(
    job: WriteJob,
    superseded: boolean,
    served: ComparedAnswer,
    otherSide: ComparedAnswer,
    again: ComparedAnswer | undefined,
    before: unknown,
  ): void {
    const checks: WriteChecked['checks'] = [];
    if (!superseded) {
      checks.push({ check: 'intent', diffs: checkIntent(job.operation, job.intent, served, { before, moving: job.moving, ignore: job.ignore }) });
      if (job.operation !== 'delete') checks.push({ check: 'answer', diffs: checkAnswer(job.answer, served, [...job.ignore, ...job.answerOnly]) });
    }
    checks.push({ check: 'other side', diffs: compareAnswers(served, otherSide, job.ignore), thresholds: job.thresholds });
    const noise = again && !failedAnswer(again) ? compareAnswers(served, again, job.ignore) : undefined;
    const failing = this.opts.book.checked(job.resource, job.operation, {
      checks,
      ...(noise ? { noise } : {}),
      sample: { requestId: job.requestId, url: job.url },
    });
    this.opts.outcome(job.resource, job.operation, failing.length > 0 ? 'differ' : 'match', failing);
    job.verified?.(failing.length > 0);
  }

  /** Resolves when every running verification has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
