import { createHash } from 'node:crypto';
import { fixedLevel, type Level } from '../verdict/look-level.js';
import { growthToDecide, rateIncreaseVerdict, rateVerdict, scaledRateVerdict, type Verdict } from '../verdict/three-verdicts.js';
import type { DiffKind, Difference } from './compare-answers.js';

/** When a field path counts as a real difference rather than noise (shares, 0 to 1). */
export interface Thresholds {
  /** (d − n) / (d + n) must pass this */
  relative: number;
  /** (d − n) / compared must pass this */
  absolute: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { relative: 0.2, absolute: 0.0003 };

export interface Sample {
  requestId: string;
  url: string;
  /** a short hash of each side's value at the path (the values themselves only with DIFF_SAMPLE_VALUES) */
  primary: string;
  secondary: string;
  primaryValue?: unknown;
  secondaryValue?: unknown;
  /** when it was booked (ms): a window shows the samples booked in it */
  at?: number;
}

interface FieldStat {
  kinds: Map<DiffKind, number>;
  differences: number;
  noise: number;
  samples: Sample[];
}

/** What a route's comparisons add up to. */
interface RouteCounts {
  resource: string;
  operation: string;
  compared: number;
  matched: number;
  differed: number;
  /** reads the serving side answered twice (the noise arm), their differences the fields' `noise` */
  noiseReads: number;
  errors: number;
  skipped: number;
}

interface RouteStat extends RouteCounts {
  thresholds: Thresholds;
  fields: Map<string, FieldStat>;
}

export interface FieldReport {
  path: string;
  kind: DiffKind;
  differences: number;
  noise: number;
  /** above the noise by the rule of thumb (`relativeThreshold`, `absoluteThreshold`): what the guard counts */
  reported: boolean;
  /** the field's differing share against its noise arm's, with its interval: pass, fail or inconclusive */
  verdict: Verdict;
  /** for an inconclusive verdict: about how many more compared reads would decide it at the same shares (null: none would) */
  readsToDecide: number | null;
  samples: Sample[];
}

/** How the report's verdicts are reached: one look at a fixed level, a minimum of compared (and noise) reads. */
export interface ReportJudgement {
  level: Level;
  minimum: number;
}

/** The report's level: each field's interval at 98 %, read once (the report is a look, not a sequence). */
export const REPORT_JUDGEMENT: ReportJudgement = { level: fixedLevel(0.02), minimum: 200 };

export interface RouteReport extends RouteCounts {
  fields: FieldReport[];
}

export interface DiffReport {
  routes: RouteReport[];
}

/** A route's counts and fields booked in one bucket of time (no samples: those are the whole report's). */
export interface BucketDelta {
  bucket: number;
  counts: Omit<RouteCounts, 'resource' | 'operation'>;
  fields: { path: string; differences: number; noise: number; kinds: Record<string, number> }[];
}

/** What one book holds of a route, whole: what a replica adds to the fleet's report (with the buckets of time it was booked in). */
export interface RouteDelta extends RouteCounts {
  thresholds: Thresholds;
  fields: { path: string; differences: number; noise: number; kinds: Record<string, number>; samples: Sample[] }[];
  buckets?: BucketDelta[];
}

/** A window of the report is read from buckets of this long… */
export const BUCKET_MS = 5 * 60_000;
/** …kept this long (the longest window offered, and a bucket more) */
export const WINDOW_KEEP_MS = 60 * 60_000 + BUCKET_MS;
/** the windows the report offers besides the whole (since its last reset) */
export const REPORT_WINDOWS = { '15m': 15 * 60_000, '1h': 60 * 60_000 } as const;
export type ReportWindow = keyof typeof REPORT_WINDOWS;

export const MAX_SAMPLES = 10;
/** field paths kept per route; more (odd bodies with map keys) fold into one path */
export const MAX_FIELDS = 200;
export const OVERFLOW = '(other paths)';

export function shortHash(value: unknown): string {
  if (value === undefined) return '-';
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'undefined';
  } catch {
    text = '(too deep to write)';
  }
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** A sample value as kept with DIFF_SAMPLE_VALUES: scalars as they are, objects as bounded JSON text. */
function keptValue(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  let text: string;
  try {
    text = JSON.stringify(v);
  } catch {
    return '(too deep to write)';
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

export function reportedOf(f: Pick<FieldStat, 'differences' | 'noise'>, compared: number, t: Thresholds): boolean {
  const d = f.differences;
  const n = f.noise;
  if (d <= n || compared === 0) return false;
  return (d - n) / (d + n) > t.relative && (d - n) / compared > t.absolute;
}

/**
 * What the comparisons found, per route and field path, against a noise baseline (as Diffy does):
 * counts, the differences and the noise of each path, and at most ten samples per path. Memory is
 * bounded whatever the traffic: routes are resource × operation, paths per route are capped.
 */
export class DiffBook {
  private routes = new Map<string, RouteStat>();
  // bucket → route → what was booked in it (no samples), the last hour's: what a window is read from
  private recent = new Map<number, Map<string, RouteStat>>();

  /** `also`: a second book that gets every booking too (what a replica has not sent to the fleet yet) */
  constructor(private readonly opts: { sampleValues: boolean; also?: DiffBook; now?: () => number }) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** The route's stat in the current bucket (older buckets let go once past the longest window). */
  private bucketRoute(r: RouteStat): RouteStat {
    const now = this.now();
    const bucket = Math.floor(now / BUCKET_MS);
    let routes = this.recent.get(bucket);
    if (!routes) {
      routes = new Map();
      this.recent.set(bucket, routes);
      for (const b of this.recent.keys()) if ((b + 1) * BUCKET_MS < now - WINDOW_KEEP_MS) this.recent.delete(b);
    }
    const key = `${r.resource} ${r.operation}`;
    let w = routes.get(key);
    if (!w) {
      w = { ...countsOf({ ...r, compared: 0, matched: 0, differed: 0, noiseReads: 0, errors: 0, skipped: 0 }), thresholds: r.thresholds, fields: new Map() };
      routes.set(key, w);
    }
    return w;
  }

  /** A field of a bucket's route, under the path the whole report keeps it as. */
  private static bucketField(w: RouteStat, path: string): FieldStat {
    let f = w.fields.get(path);
    if (!f) {
      f = { kinds: new Map(), differences: 0, noise: 0, samples: [] };
      w.fields.set(path, f);
    }
    return f;
  }

  /** The path a field is kept under: its own, or the overflow once a route has MAX_FIELDS. */
  private static pathOf(r: RouteStat, path: string): string {
    return r.fields.has(path) || r.fields.size < MAX_FIELDS ? path : OVERFLOW;
  }

  private route(resource: string, operation: string, thresholds?: Thresholds): RouteStat {
    const key = `${resource} ${operation}`;
    let r = this.routes.get(key);
    if (!r) {
      r = {
        resource,
        operation,
        compared: 0,
        matched: 0,
        differed: 0,
        noiseReads: 0,
        errors: 0,
        skipped: 0,
        thresholds: DEFAULT_THRESHOLDS,
        fields: new Map(),
      };
      this.routes.set(key, r);
    }
    if (thresholds) r.thresholds = thresholds;
    return r;
  }

  private field(r: RouteStat, path: string): FieldStat {
    const known = r.fields.get(path);
    if (known) return known;
    const key = DiffBook.pathOf(r, path);
    let f = r.fields.get(key);
    if (!f) {
      f = { kinds: new Map(), differences: 0, noise: 0, samples: [] };
      r.fields.set(key, f);
    }
    return f;
  }

  /** One compared request; true when it shows a difference that is reported (above its noise). */
  compared(resource: string, operation: string, thresholds: Thresholds, sample: { requestId: string; url: string }, diffs: readonly Difference[]): boolean {
    this.opts.also?.compared(resource, operation, thresholds, sample, diffs);
    const r = this.route(resource, operation, thresholds);
    const w = this.bucketRoute(r);
    r.compared += 1;
    w.compared += 1;
    for (const d of diffs) {
      const wf = DiffBook.bucketField(w, DiffBook.pathOf(r, d.path));
      const f = this.field(r, d.path);
      f.differences += 1;
      f.kinds.set(d.kind, (f.kinds.get(d.kind) ?? 0) + 1);
      wf.differences += 1;
      wf.kinds.set(d.kind, (wf.kinds.get(d.kind) ?? 0) + 1);
      if (f.samples.length < MAX_SAMPLES) {
        f.samples.push({
          ...sample,
          // a status is shown as it is (it says nothing of the data); values only as hashes
          primary: d.kind === 'status' ? String(d.primary) : shortHash(d.primary),
          secondary: d.kind === 'status' ? String(d.secondary) : shortHash(d.secondary),
          ...(this.opts.sampleValues ? { primaryValue: keptValue(d.primary), secondaryValue: keptValue(d.secondary) } : {}),
          at: this.now(),
        });
      }
    }
    const reported = diffs.some((d) => {
      const f = r.fields.get(d.path) ?? r.fields.get(OVERFLOW);
      return f !== undefined && reportedOf(f, r.compared, r.thresholds);
    });
    if (reported) {
      r.differed += 1;
      w.differed += 1;
    } else {
      r.matched += 1;
      w.matched += 1;
    }
    return reported;
  }

  /** Differences between two answers of the serving side: noise for their paths. */
  noise(resource: string, operation: string, diffs: readonly Difference[]): void {
    this.opts.also?.noise(resource, operation, diffs);
    const r = this.route(resource, operation);
    const w = this.bucketRoute(r);
    r.noiseReads += 1;
    w.noiseReads += 1;
    for (const d of diffs) {
      DiffBook.bucketField(w, DiffBook.pathOf(r, d.path)).noise += 1;
      this.field(r, d.path).noise += 1;
    }
  }

  error(resource: string, operation: string): void {
    this.opts.also?.error(resource, operation);
    const r = this.route(resource, operation);
    r.errors += 1;
    this.bucketRoute(r).errors += 1;
  }

  skipped(resource: string, operation: string): void {
    this.opts.also?.skipped(resource, operation);
    const r = this.route(resource, operation);
    r.skipped += 1;
    this.bucketRoute(r).skipped += 1;
  }

  reset(): void {
    this.routes = new Map();
    this.recent = new Map();
  }

  /** Everything booked, whole, and the book starts afresh (a replica's not yet sent share of the fleet's report). */
  drain(): RouteDelta[] {
    const routes = this.routesNow();
    this.reset();
    return routes;
  }

  /** The report, routes and fields worst first: all since the last reset, or the last `window`. */
  report(judgement: ReportJudgement = REPORT_JUDGEMENT, window?: ReportWindow): DiffReport {
    return reportOf(window === undefined ? this.routesNow() : this.routesWithin(REPORT_WINDOWS[window]), judgement);
  }

  private routesNow(): RouteDelta[] {
    return [...this.routes.values()].map((r) => ({
      ...countsOf(r),
      thresholds: r.thresholds,
      fields: [...r.fields.entries()].map(([path, f]) => ({
        path,
        differences: f.differences,
        noise: f.noise,
        kinds: Object.fromEntries(f.kinds),
        samples: [...f.samples],
      })),
      buckets: [...this.recent.entries()].flatMap(([bucket, routes]) => {
        const w = routes.get(`${r.resource} ${r.operation}`);
        return w ? [bucketDelta(bucket, w)] : [];
      }),
    }));
  }

  /** The routes booked in the last `ms`, read from the buckets that window covers (samples: those booked in it). */
  private routesWithin(ms: number): RouteDelta[] {
    const from = this.now() - ms;
    return this.routesNow().flatMap((r) => windowed(r, from));
  }
}

function bucketDelta(bucket: number, w: RouteStat): BucketDelta {
  const { resource: _r, operation: _o, ...counts } = countsOf(w);
  return {
    bucket,
    counts,
    fields: [...w.fields.entries()].map(([path, f]) => ({ path, differences: f.differences, noise: f.noise, kinds: Object.fromEntries(f.kinds) })),
  };
}

/**
 * A route's whole delta cut to what was booked from `from` on: its buckets from the one `from` falls
 * in, summed, and the samples booked since; nothing when it booked nothing then.
 */
export function windowed(r: RouteDelta, from: number): RouteDelta[] {
  const first = Math.floor(from / BUCKET_MS);
  const buckets = (r.buckets ?? []).filter((b) => b.bucket >= first);
  if (buckets.length === 0) return [];
  const counts = { compared: 0, matched: 0, differed: 0, noiseReads: 0, errors: 0, skipped: 0 };
  const fields = new Map<string, { differences: number; noise: number; kinds: Record<string, number> }>();
  for (const b of buckets) {
    for (const k of Object.keys(counts) as (keyof typeof counts)[]) counts[k] += b.counts[k] ?? 0;
    for (const f of b.fields) {
      const sum = fields.get(f.path) ?? { differences: 0, noise: 0, kinds: {} };
      sum.differences += f.differences;
      sum.noise += f.noise;
      for (const [kind, n] of Object.entries(f.kinds)) sum.kinds[kind] = (sum.kinds[kind] ?? 0) + n;
      fields.set(f.path, sum);
    }
  }
  const samplesOf = (path: string) => (r.fields.find((f) => f.path === path)?.samples ?? []).filter((x) => (x.at ?? 0) >= from);
  return [
    {
      resource: r.resource,
      operation: r.operation,
      ...counts,
      thresholds: r.thresholds,
      fields: [...fields.entries()].map(([path, f]) => ({ path, ...f, samples: samplesOf(path) })),
    },
  ];
}

/** A route's counts alone (not its fields or thresholds). */
function countsOf(r: RouteCounts): RouteCounts {
  return {
    resource: r.resource,
    operation: r.operation,
    compared: r.compared,
    matched: r.matched,
    differed: r.differed,
    noiseReads: r.noiseReads,
    errors: r.errors,
    skipped: r.skipped,
  };
}

/**
 * A field's verdict: its differing share of compared reads against its share of the noise arm's
 * reads (two proportions, Newcombe's interval), or against none when the route had no noise arm,
 * with the route's absolute threshold as the tolerance.
 */
export function fieldVerdict(
  f: { differences: number; noise: number },
  r: Pick<RouteCounts, 'compared' | 'noiseReads'>,
  tolerance: number,
  j: ReportJudgement,
): { verdict: Verdict; readsToDecide: number | null } {
  const a = { side: 'compared reads', count: r.compared, events: Math.min(f.differences, r.compared) };
  const b = r.noiseReads === 0 ? null : { side: 'noise reads', count: r.noiseReads, events: Math.min(f.noise, r.noiseReads) };
  const common = { tolerance, minimum: j.minimum, level: j.level, look: null };
  const verdict = b
    ? rateIncreaseVerdict({ ...common, measure: 'differing share of compared reads − of noise reads', a, b })
    : rateVerdict({ ...common, measure: 'differing share of compared reads (no noise arm)', side: a });
  if (verdict.verdict !== 'inconclusive' || a.count === 0) return { verdict, readsToDecide: null };
  // grown at least to the minimum on each side, then as far as the interval needs at the same shares
  const from = Math.max(j.minimum / a.count, b ? j.minimum / Math.max(1, b.count) : 1);
  const scale = growthToDecide((s) => scaledRateVerdict(a, b, tolerance, j.level, s), from);
  return { verdict, readsToDecide: scale === null ? null : Math.ceil(a.count * (scale - 1)) };
}

/** Routes with their counts and fields as the report shows them: worst first, each field's kind its most frequent. */
export function reportOf(all: readonly RouteDelta[], judgement: ReportJudgement = REPORT_JUDGEMENT): DiffReport {
  const rank = { fail: 2, inconclusive: 1, pass: 0 } as const;
  const routes = all.map((r): RouteReport => {
    const fields = r.fields.map((f): FieldReport => {
      const kind = (Object.entries(f.kinds).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'value') as DiffKind;
      const judged = fieldVerdict(f, r, r.thresholds.absolute, judgement);
      return {
        path: f.path,
        kind,
        differences: f.differences,
        noise: f.noise,
        reported: reportedOf(f, r.compared, r.thresholds),
        ...judged,
        samples: [...f.samples],
      };
    });
    fields.sort(
      (a, b) =>
        rank[b.verdict.verdict] - rank[a.verdict.verdict] ||
        Number(b.reported) - Number(a.reported) ||
        b.differences - b.noise - (a.differences - a.noise) ||
        a.path.localeCompare(b.path),
    );
    return { ...countsOf(r), fields };
  });
  const share = (r: RouteReport) => (r.compared === 0 ? 0 : r.differed / r.compared);
  routes.sort(
    (a, b) =>
      share(b) - share(a) ||
      b.fields.filter((f) => f.reported).length - a.fields.filter((f) => f.reported).length ||
      `${a.resource} ${a.operation}`.localeCompare(`${b.resource} ${b.operation}`),
  );
  return { routes };
}
