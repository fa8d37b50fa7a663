import type { Difference } from './compare-answers.js';
import type { DiffBook, DiffReport, FieldReport, RouteReport, Thresholds } from './diff-book.js';

/** What a verified write is checked for: what it asked, what it answered, and the other side's read. */
export const WRITE_CHECKS = ['intent', 'answer', 'other side'] as const;
export type WriteCheck = (typeof WRITE_CHECKS)[number];

/** A check that has no noise of its own: any difference is one (the other side's has the shadow's noise arm). */
const EXACT: Thresholds = { relative: 0, absolute: 0 };

// A verified write is booked in the diff book under routes of its own, so it reaches the fleet's
// report, its windows and its resets as the shadow's reads do: `update/verified` (every verification:
// compared, differing, errors, dropped as skipped), `update/unverified` (counted as skipped), and a
// route per check with its field paths and samples. Reads never have a `/` in their operation.
const SEPARATOR = '/';
const routeOf = (operation: string, part: WriteCheck | 'verified' | 'unverified') => `${operation}${SEPARATOR}${part}`;

/** One verification's result: each check that ran, with its differences. */
export interface WriteChecked {
  checks: { check: WriteCheck; diffs: readonly Difference[]; thresholds?: Thresholds }[];
  /** differences between two reads of the serving side (the noise arm of the other-side check) */
  noise?: readonly Difference[];
  sample: { requestId: string; url: string };
}

/** A route's verified writes as the report shows them. */
export interface WriteRouteReport {
  resource: string;
  operation: string;
  verified: number;
  matched: number;
  differed: number;
  /** verifications whose read failed (a side's 5xx or no answer): not compared */
  errors: number;
  /** sampled writes not verified: over the bound of verifications in flight */
  skipped: number;
  /** writes whose resource kept changing through every retry: neither a match nor a difference */
  unverified: number;
  /** per check: the verifications it ran in, and those where it found a difference */
  checks: Record<WriteCheck, { checked: number; differed: number }>;
  /** the differing field paths of every check, worst first */
  fields: (FieldReport & { check: WriteCheck })[];
}

export interface WriteReport {
  routes: WriteRouteReport[];
}

/** Books verified writes into a diff book (the one the shadow's reads go to). */
export class WriteBook {
  constructor(private readonly book: DiffBook) {}

  /** One write verified: each check booked with its differences; the checks that found one. */
  checked(resource: string, operation: string, result: WriteChecked): WriteCheck[] {
    const failing: WriteCheck[] = [];
    for (const c of result.checks) {
      const route = routeOf(operation, c.check);
      if (c.check === 'other side' && result.noise) this.book.noise(resource, route, result.noise);
      if (this.book.compared(resource, route, c.thresholds ?? EXACT, result.sample, c.diffs)) failing.push(c.check);
    }
    // the overall route: one "field" per check that found a difference
    const overall: Difference[] = failing.map((check) => ({ path: check, kind: 'value' }));
    this.book.compared(resource, routeOf(operation, 'verified'), EXACT, result.sample, overall);
    return failing;
  }

  error(resource: string, operation: string): void {
    this.book.error(resource, routeOf(operation, 'verified'));
  }

  skipped(resource: string, operation: string): void {
    this.book.skipped(resource, routeOf(operation, 'verified'));
  }

  unverified(resource: string, operation: string): void {
    this.book.skipped(resource, routeOf(operation, 'unverified'));
  }
}

const RANK = { fail: 2, inconclusive: 1, pass: 0 } as const;

/**
 * A diff report cut in two: the shadow's reads, and the verified writes (their routes gathered per
 * resource and operation). Pure.
 */
export function splitWrites(report: DiffReport): { reads: DiffReport; writes: WriteReport } {
  const reads = report.routes.filter((r) => !r.operation.includes(SEPARATOR));
  const byWrite = new Map<string, WriteRouteReport>();
  const of = (r: RouteReport) => {
    const operation = r.operation.slice(0, r.operation.indexOf(SEPARATOR));
    const key = `${r.resource} ${operation}`;
    let w = byWrite.get(key);
    if (!w) {
      const checks = Object.fromEntries(WRITE_CHECKS.map((c) => [c, { checked: 0, differed: 0 }])) as WriteRouteReport['checks'];
      w = { resource: r.resource, operation, verified: 0, matched: 0, differed: 0, errors: 0, skipped: 0, unverified: 0, checks, fields: [] };
      byWrite.set(key, w);
    }
    return w;
  };
  for (const r of report.routes) {
    if (!r.operation.includes(SEPARATOR)) continue;
    const w = of(r);
    const part = r.operation.slice(r.operation.indexOf(SEPARATOR) + 1);
    if (part === 'verified') {
      Object.assign(w, { verified: r.compared, matched: r.matched, differed: r.differed, errors: r.errors, skipped: r.skipped });
    } else if (part === 'unverified') {
      w.unverified = r.skipped;
    } else if ((WRITE_CHECKS as readonly string[]).includes(part)) {
      const check = part as WriteCheck;
      w.checks[check] = { checked: r.compared, differed: r.differed };
      w.fields.push(...r.fields.map((f) => ({ check, ...f })));
    }
  }
  const writes = [...byWrite.values()];
  for (const w of writes)
    w.fields.sort((a, b) => RANK[b.verdict.verdict] - RANK[a.verdict.verdict] || b.differences - a.differences || a.path.localeCompare(b.path));
  const share = (w: WriteRouteReport) => (w.verified === 0 ? 0 : w.differed / w.verified);
  writes.sort((a, b) => share(b) - share(a) || `${a.resource} ${a.operation}`.localeCompare(`${b.resource} ${b.operation}`));
  return { reads: { routes: reads }, writes: { routes: writes } };
}
