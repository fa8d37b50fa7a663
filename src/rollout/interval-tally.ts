import type { Bucket } from '../verdict/quantile-interval.js';

/** The two sides a request may be served by. */
type Backend = 'translate' | 'native';

/** Latency buckets: each 2^(1/4) wider than the last (a quantile read from them is within 19 %), from 10 µs to about 6 minutes. */
const FLOOR_MS = 0.01;
const PER_DOUBLING = 4;
const LAST_BUCKET = 100;

/** What one analysis interval of a route saw, summed over the replicas: the figures its verdict is made of. */
export interface IntervalTally {
  requests: Record<Backend, number>;
  /** 5xx answers and transport failures */
  errors: Record<Backend, number>;
  /** latency bucket → requests */
  latency: Record<Backend, Record<number, number>>;
  /** shadowed reads compared, those with a reported difference, and those with any difference */
  compared: number;
  differed: number;
  unequal: number;
  /** the noise arm: reads the serving side answered twice, and those whose two answers differed */
  noise: number;
  noiseUnequal: number;
  /** writes read back and checked, and those with a difference (intent, answer or the other side) */
  verified: number;
  writeDiffered: number;
}

/** One shadowed read's comparison as the analysis counts it. */
export interface ShadowComparison {
  /** a difference above the field's noise (what the guard and `until` count) */
  reported: boolean;
  /** any difference at all */
  unequal: boolean;
  /** the noise arm's result: whether the serving side's two answers differed (null: not asked twice) */
  noise: boolean | null;
}

export function emptyTally(): IntervalTally {
  return {
    requests: { translate: 0, native: 0 },
    errors: { translate: 0, native: 0 },
    latency: { translate: {}, native: {} },
    compared: 0,
    differed: 0,
    unequal: 0,
    noise: 0,
    noiseUnequal: 0,
    verified: 0,
    writeDiffered: 0,
  };
}

/** The bucket of a latency in milliseconds. */
export function latencyBucket(ms: number): number {
  if (!(ms > FLOOR_MS)) return 0;
  return Math.min(LAST_BUCKET, Math.ceil(PER_DOUBLING * Math.log2(ms / FLOOR_MS)));
}

/** The upper bound of a bucket, in milliseconds. */
function bucketUpperMs(bucket: number): number {
  return FLOOR_MS * 2 ** (bucket / PER_DOUBLING);
}

/** One served request of a side, into a tally. */
export function countServed(tally: IntervalTally, side: Backend, failed: boolean, ms: number): void {
  tally.requests[side] += 1;
  if (failed) tally.errors[side] += 1;
  const b = latencyBucket(ms);
  tally.latency[side][b] = (tally.latency[side][b] ?? 0) + 1;
}

/** Adds `more` into `into`. */
export function addTally(into: IntervalTally, more: IntervalTally): void {
  for (const side of ['translate', 'native'] as const) {
    into.requests[side] += more.requests[side];
    into.errors[side] += more.errors[side];
    for (const [b, n] of Object.entries(more.latency[side])) into.latency[side][Number(b)] = (into.latency[side][Number(b)] ?? 0) + n;
  }
  into.compared += more.compared;
  into.differed += more.differed;
  into.unequal += more.unequal;
  into.noise += more.noise;
  into.noiseUnequal += more.noiseUnequal;
  into.verified += more.verified;
  into.writeDiffered += more.writeDiffered;
}

/** One verified write, into a tally. */
export function countVerified(tally: IntervalTally, differed: boolean): void {
  tally.verified += 1;
  if (differed) tally.writeDiffered += 1;
}

/** One shadowed read compared, into a tally. */
export function countCompared(tally: IntervalTally, c: ShadowComparison): void {
  tally.compared += 1;
  if (c.reported) tally.differed += 1;
  if (c.unequal) tally.unequal += 1;
  if (c.noise !== null) {
    tally.noise += 1;
    if (c.noise) tally.noiseUnequal += 1;
  }
}

/** A side's latency histogram as buckets with their bounds, lowest first. */
export function bucketsOf(buckets: Record<number, number>): Bucket[] {
  return Object.entries(buckets)
    .map(([b, n]) => [Number(b), n] as const)
    .filter(([, n]) => n > 0)
    .sort((x, y) => x[0] - y[0])
    .map(([b, count]) => ({ low: b === 0 ? 0 : bucketUpperMs(b - 1), high: bucketUpperMs(b), count }));
}

/** The `q` quantile of a bucket histogram in milliseconds (the bucket's upper bound, rounded to 0.01 ms); null when empty. */
export function quantileMs(buckets: Record<number, number>, q: number): number | null {
  const entries = Object.entries(buckets)
    .map(([b, n]) => [Number(b), n] as const)
    .filter(([, n]) => n > 0)
    .sort((x, y) => x[0] - y[0]);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const [b, n] of entries) {
    seen += n;
    if (seen >= q * total) return Math.round(bucketUpperMs(b) * 100) / 100;
  }
  return Math.round(bucketUpperMs((entries.at(-1) as readonly [number, number])[0]) * 100) / 100;
}

const SIDE_LETTER: Record<Backend, string> = { translate: 't', native: 'n' };

/** A tally as named counters (`r.t` requests, `e.n` errors, `l.t.12` a latency bucket, `c`, `d`): what the fleet's counters add up. */
export function tallyCounts(tally: IntervalTally): Record<string, number> {
  const counts: Record<string, number> = {
    c: tally.compared,
    d: tally.differed,
    u: tally.unequal,
    z: tally.noise,
    zu: tally.noiseUnequal,
    wv: tally.verified,
    wd: tally.writeDiffered,
  };
  for (const side of ['translate', 'native'] as const) {
    const s = SIDE_LETTER[side];
    counts[`r.${s}`] = tally.requests[side];
    counts[`e.${s}`] = tally.errors[side];
    for (const [b, n] of Object.entries(tally.latency[side])) counts[`l.${s}.${b}`] = n;
  }
  return counts;
}

/** The tally named counters add up to (fields it does not know are left out). */
export function tallyOf(counts: Record<string, number>): IntervalTally {
  const tally = emptyTally();
  const n = (v: number | undefined) => (Number.isFinite(v) && (v as number) > 0 ? (v as number) : 0);
  tally.compared = n(counts.c);
  tally.differed = Math.min(n(counts.d), tally.compared);
  tally.unequal = Math.min(n(counts.u), tally.compared);
  tally.noise = n(counts.z);
  tally.noiseUnequal = Math.min(n(counts.zu), tally.noise);
  tally.verified = n(counts.wv);
  tally.writeDiffered = Math.min(n(counts.wd), tally.verified);
  for (const side of ['translate', 'native'] as const) {
    const s = SIDE_LETTER[side];
    tally.requests[side] = n(counts[`r.${s}`]);
    tally.errors[side] = Math.min(n(counts[`e.${s}`]), tally.requests[side]);
  }
  for (const [field, v] of Object.entries(counts)) {
    const m = /^l\.([tn])\.(\d{1,3})$/.exec(field);
    if (!m || n(v) === 0 || Number(m[2]) > LAST_BUCKET) continue;
    tally.latency[m[1] === 't' ? 'translate' : 'native'][Number(m[2])] = n(v);
  }
  return tally;
}
