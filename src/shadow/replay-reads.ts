import { answerBody } from './answer-body.js';
import { type ComparedAnswer, compareAnswers } from './compare-answers.js';
import { DEFAULT_THRESHOLDS, DiffBook, type DiffReport, REPORT_JUDGEMENT, type ReportJudgement } from './diff-book.js';

export interface ReplayTarget {
  url: string;
  token: string;
}

export interface ReplayRead {
  url: string;
  requestId: string;
  resource: string;
  operation: 'list' | 'get';
  /** a continued page: each side reads only its own tokens, so it is counted and skipped */
  continued: boolean;
}

export interface ReplayResult {
  report: DiffReport;
  /** reads compared (both sides answered, neither refused nor failed) */
  compared: number;
  differed: number;
  /** reads replayed (not skipped) */
  replayed: number;
  /** reads that failed on either side, not compared */
  failed: number;
  /** why reads failed, per side: `no answer`, or the HTTP status (401, 403, 5xx) */
  failures: { a: Record<string, number>; b: Record<string, number> };
}

/** An answer that says nothing of the data: nobody answered, the token was refused, or the side failed. */
function failureOf(answer: ComparedAnswer | undefined): string | undefined {
  if (answer === undefined) return 'no answer';
  return answer.status === 401 || answer.status === 403 || answer.status >= 500 ? String(answer.status) : undefined;
}

const TIMEOUT_MS = 30_000;

async function read(target: ReplayTarget, url: string, requestId: string, headers: Readonly<Record<string, string>>): Promise<ComparedAnswer> {
  const res = await fetch(`${target.url}${url}`, {
    headers: { ...headers, authorization: `Bearer ${target.token}`, 'x-request-id': requestId, accept: 'application/json' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: res.status, body: answerBody(await res.text()) };
}

/**
 * Replays recorded reads against two backends with the live comparator and noise baseline: each
 * read goes to A and B (and, for `noisePercent` of them, to A a second time), `concurrency` at once.
 */
export async function replayReads(
  reads: readonly ReplayRead[],
  opts: {
    a: ReplayTarget;
    b: ReplayTarget;
    concurrency: number;
    noisePercent: number;
    /** field paths left out of every comparison (as a rollout route's `ignore`) */
    ignore?: readonly string[];
    /** sent with every read to both sides (say, `x-v2proxy-backend: translate` to a proxy) */
    headers?: Readonly<Record<string, string>>;
    sampleValues?: boolean;
    /** the share of compared reads a field may differ by (the fields' verdicts' tolerance; default the live report's 0.03 %) */
    tolerance?: number;
    /** how the fields' verdicts are reached (default: one look at 98 %, at least 200 reads) */
    judgement?: ReportJudgement;
    random?: () => number;
    progress?: (done: number, total: number) => void;
  },
): Promise<ReplayResult> {
  const book = new DiffBook({ sampleValues: opts.sampleValues ?? false });
  const random = opts.random ?? Math.random;
  let next = 0;
  let done = 0;
  let compared = 0;
  let differed = 0;
  let replayed = 0;
  let failed = 0;
  const failures: ReplayResult['failures'] = { a: {}, b: {} };
  const count = (side: Record<string, number>, why: string | undefined) => {
    if (why !== undefined) side[why] = (side[why] ?? 0) + 1;
  };
  const ignore = opts.ignore ?? [];
  const thresholds = { ...DEFAULT_THRESHOLDS, absolute: opts.tolerance ?? DEFAULT_THRESHOLDS.absolute };
  const attempt = (target: ReplayTarget, r: ReplayRead) => read(target, r.url, r.requestId, opts.headers ?? {}).catch(() => undefined);
  const worker = async () => {
    for (;;) {
      const index = next;
      next += 1;
      const r = reads[index];
      if (r === undefined) return;
      if (r.continued) book.skipped(r.resource, r.operation);
      else {
        replayed += 1;
        const twice = random() * 100 < opts.noisePercent;
        const [a, b, again] = await Promise.all([attempt(opts.a, r), attempt(opts.b, r), twice ? attempt(opts.a, r) : Promise.resolve(undefined)]);
        const whyA = failureOf(a);
        const whyB = failureOf(b);
        // a read refused or failed on either side is not a comparison: both 401s are not a match
        if (a === undefined || b === undefined || whyA !== undefined || whyB !== undefined) {
          failed += 1;
          count(failures.a, whyA);
          count(failures.b, whyB);
          book.error(r.resource, r.operation);
        } else {
          if (again && failureOf(again) === undefined) book.noise(r.resource, r.operation, compareAnswers(a, again, ignore));
          compared += 1;
          if (book.compared(r.resource, r.operation, thresholds, { requestId: r.requestId, url: r.url }, compareAnswers(a, b, ignore))) differed += 1;
        }
      }
      done += 1;
      opts.progress?.(done, reads.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker));
  return { report: book.report(opts.judgement ?? REPORT_JUDGEMENT), compared, differed, replayed, failed, failures };
}
