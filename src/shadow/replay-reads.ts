import { answerBody } from './answer-body.js';
import { type ComparedAnswer, compareAnswers } from './compare-answers.js';
import { DEFAULT_THRESHOLDS, DiffBook, type DiffReport } from './diff-book.js';

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
  compared: number;
  differed: number;
}

const TIMEOUT_MS = 30_000;

async function read(target: ReplayTarget, url: string, requestId: string): Promise<ComparedAnswer> {
  const res = await fetch(`${target.url}${url}`, {
    headers: { authorization: `Bearer ${target.token}`, 'x-request-id': requestId, accept: 'application/json' },
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
    sampleValues?: boolean;
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
  const worker = async () => {
    for (;;) {
      const index = next;
      next += 1;
      const r = reads[index];
      if (r === undefined) return;
      if (r.continued) book.skipped(r.resource, r.operation);
      else {
        try {
          const twice = random() * 100 < opts.noisePercent;
          const [a, b, again] = await Promise.all([
            read(opts.a, r.url, r.requestId),
            read(opts.b, r.url, r.requestId),
            twice ? read(opts.a, r.url, r.requestId) : Promise.resolve(undefined),
          ]);
          if (again) book.noise(r.resource, r.operation, compareAnswers(a, again));
          compared += 1;
          if (book.compared(r.resource, r.operation, DEFAULT_THRESHOLDS, { requestId: r.requestId, url: r.url }, compareAnswers(a, b))) differed += 1;
        } catch {
          book.error(r.resource, r.operation);
        }
      }
      done += 1;
      opts.progress?.(done, reads.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker));
  return { report: book.report(), compared, differed };
}
