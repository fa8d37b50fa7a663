import type { Level } from './look-level.js';
import { normalQuantile } from './normal-quantile.js';
import { type Bucket, countOf, quantileInterval, quantileOf } from './quantile-interval.js';
import { type Bounds, newcombe, wilson } from './rate-interval.js';

export type VerdictName = 'pass' | 'fail' | 'inconclusive';

/** What one side of a check saw: how many, how many of them were events (errors, differing reads), the estimate. */
export interface SideFigures {
  side: string;
  count: number;
  events: number | null;
  estimate: number | null;
}

/**
 * A verdict with the numbers it was reached on: fail when the interval lies wholly above the
 * tolerance, pass when the pass interval lies wholly below it, inconclusive otherwise or below the
 * minimum sample of a side. The two intervals are the same but for their level: a sequence of looks
 * builds the fail interval at its look's share of α (a false fail stays at most α over every look),
 * and the pass interval at a fixed level (a clean step needs the same traffic at any look).
 */
export interface Verdict {
  verdict: VerdictName;
  /** what the estimate and the interval measure (`native error rate − translated error rate`) */
  measure: string;
  /** `share` (0 to 1) or `ratio` */
  unit: 'share' | 'ratio';
  sides: SideFigures[];
  estimate: number | null;
  interval: Bounds | null;
  /** the interval's confidence (1 − the α of this look): what a fail is judged at */
  level: number | null;
  /** the interval a pass is judged on, and its confidence (the same as the fail's at a single look) */
  passInterval: Bounds | null;
  passLevel: number | null;
  tolerance: number;
  /** the minimum sample per side */
  minimum: number;
  method: string;
  /** the look of the sequence this interval was built at (null: a single look) */
  look: number | null;
  why: string;
}

export const METHODS = {
  rate: 'Wilson score interval',
  rateIncrease: 'Newcombe hybrid score interval',
  quantileRatio: 'order-statistic quantile intervals (Bonferroni)',
} as const;

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** A share or a ratio as the words of a verdict show it. */
export function shown(n: number | null, unit: Verdict['unit']): string {
  if (n === null) return '∞';
  if (unit === 'ratio') return `${(Math.round(n * 100) / 100).toString()}×`;
  return `${(Math.round(n * 10_000) / 100).toString()} %`;
}

/** The three-way rule: the fail interval wholly above the tolerance fails, the pass interval wholly below passes. */
export function verdictOf(interval: Bounds, tolerance: number, passInterval: Bounds = interval): VerdictName {
  if (interval.low > tolerance) return 'fail';
  if (passInterval.high !== null && passInterval.high < tolerance) return 'pass';
  return 'inconclusive';
}

/** A check's sides in words: `native requests: 12 of 400 (3 %)`, `native requests: 41 ms of 400` (a quantile). */
export function sidesText(c: Pick<Verdict, 'sides'>): string {
  return c.sides
    .map((s) =>
      s.events === null
        ? `${s.side}: ${s.estimate === null ? 'none' : `${s.estimate} ms`} of ${s.count}`
        : `${s.side}: ${s.events} of ${s.count}${s.estimate === null ? '' : ` (${shown(s.estimate, 'share')})`}`,
    )
    .join(', ');
}

function whyOf(v: VerdictName, interval: Bounds, passInterval: Bounds, tolerance: number, unit: Verdict['unit']): string {
  const range = (b: Bounds) => `[${shown(b.low, unit)}, ${shown(b.high, unit)}]`;
  if (v === 'fail') return `the interval ${range(interval)} lies wholly above the tolerance ${shown(tolerance, unit)}`;
  if (v === 'pass') return `the pass interval ${range(passInterval)} lies wholly below the tolerance ${shown(tolerance, unit)}`;
  const both = range(interval) === range(passInterval) ? range(interval) : `${range(interval)} (pass interval ${range(passInterval)})`;
  return `the interval ${both} holds the tolerance ${shown(tolerance, unit)}: more requests will decide`;
}

interface Common {
  measure: string;
  tolerance: number;
  minimum: number;
  /** the level a fail is judged at */
  level: Level;
  /** the level a pass is judged at (default: `level`) */
  passLevel?: Level | undefined;
  look: number | null;
}

type Base = Omit<Verdict, 'verdict' | 'why' | 'estimate' | 'interval' | 'level' | 'passInterval' | 'passLevel'>;

function short(base: Base, sides: readonly SideFigures[]): Verdict | undefined {
  const lacking = sides.find((s) => s.count < base.minimum);
  if (!lacking) return undefined;
  return {
    ...base,
    verdict: 'inconclusive',
    estimate: null,
    interval: null,
    level: null,
    passInterval: null,
    passLevel: null,
    why: `${lacking.count} of the ${base.minimum} ${lacking.side} needed (the minimum per side)`,
  };
}

const rounded = (b: Bounds): Bounds => ({ low: round(b.low), high: b.high === null ? null : round(b.high) });

/** The verdict of an interval built at each level (`at(level)`): the fail's at `level`, the pass's at `passLevel`. */
function decided(base: Base & { estimate: number | null }, at: (level: Level) => Bounds, level: Level, passLevel: Level = level): Verdict {
  const interval = at(level);
  const passInterval = passLevel === level ? interval : at(passLevel);
  const verdict = verdictOf(interval, base.tolerance, passInterval);
  const [i, p] = [rounded(interval), rounded(passInterval)];
  return {
    ...base,
    verdict,
    interval: i,
    level: round(level.confidence),
    passInterval: p,
    passLevel: round(passLevel.confidence),
    why: whyOf(verdict, i, p, base.tolerance, base.unit),
  };
}

const figures = (side: string, count: number, events: number): SideFigures => ({
  side,
  count,
  events,
  estimate: count === 0 ? null : round(events / count),
});

/** One share (native errors of native requests) against a limit. */
export function rateVerdict(c: Common & { side: { side: string; count: number; events: number } }): Verdict {
  const sides = [figures(c.side.side, c.side.count, c.side.events)];
  const base = { measure: c.measure, unit: 'share' as const, sides, tolerance: c.tolerance, minimum: c.minimum, method: METHODS.rate, look: c.look };
  return (
    short(base, sides) ?? decided({ ...base, estimate: sides[0]?.estimate ?? null }, (l) => wilson(c.side.events, c.side.count, l.z), c.level, c.passLevel)
  );
}

/** The difference of two shares (a − b: native errors against translated ones) against a tolerance. */
export function rateIncreaseVerdict(
  c: Common & { a: { side: string; count: number; events: number }; b: { side: string; count: number; events: number } },
): Verdict {
  const sides = [figures(c.a.side, c.a.count, c.a.events), figures(c.b.side, c.b.count, c.b.events)];
  const base = { measure: c.measure, unit: 'share' as const, sides, tolerance: c.tolerance, minimum: c.minimum, method: METHODS.rateIncrease, look: c.look };
  const estimate = round(c.a.events / Math.max(1, c.a.count) - c.b.events / Math.max(1, c.b.count));
  return short(base, sides) ?? decided({ ...base, estimate }, (l) => newcombe(c.a, c.b, l.z), c.level, c.passLevel);
}

/**
 * The ratio of one side's `q` quantile to the other's (native p99 / translated p99) against a
 * tolerance: each side's quantile interval at half the α, their ratio's bounds the ratios of
 * opposite ends.
 */
export function quantileRatioVerdict(
  c: Common & { q: number; a: { side: string; buckets: readonly Bucket[] }; b: { side: string; buckets: readonly Bucket[] } },
): Verdict {
  const side = (s: { side: string; buckets: readonly Bucket[] }): SideFigures => ({
    side: s.side,
    count: countOf(s.buckets),
    events: null,
    estimate: quantileOf(s.buckets, c.q),
  });
  const sides = [side(c.a), side(c.b)];
  const base = { measure: c.measure, unit: 'ratio' as const, sides, tolerance: c.tolerance, minimum: c.minimum, method: METHODS.quantileRatio, look: c.look };
  const lacking = short(base, sides);
  if (lacking) return lacking;
  const [qa, qb] = [sides[0]?.estimate ?? null, sides[1]?.estimate ?? null];
  const estimate = qa !== null && qb !== null && qb > 0 ? round(qa / qb) : null;
  const ratio = (level: Level): Bounds => {
    // each quantile at α/2: both hold with 1 − α
    const zHalf = halfAlphaZ(level);
    const a = quantileInterval(c.a.buckets, c.q, zHalf);
    const b = quantileInterval(c.b.buckets, c.q, zHalf);
    return { low: b.high === null || b.high === 0 ? 0 : a.low / b.high, high: a.high === null || b.low === 0 ? null : a.high / b.low };
  };
  return decided({ ...base, estimate }, ratio, c.level, c.passLevel);
}

function halfAlphaZ(level: Level): number {
  return normalQuantile(1 - level.alpha / 4);
}

/**
 * How much a sample must grow to decide an inconclusive verdict if its shares stayed as they are:
 * the smallest scale from `from` (at least 1) up to a thousand at which `at` is no longer
 * inconclusive; null when none is (the estimate sits on the tolerance).
 */
export function growthToDecide(at: (scale: number) => VerdictName, from = 1): number | null {
  let lo = Math.max(1, from);
  if (at(lo) !== 'inconclusive') return lo;
  let hi = 1000 * lo;
  if (at(hi) === 'inconclusive') return null;
  while (hi - lo > 0.001 * lo) {
    const mid = (lo + hi) / 2;
    if (at(mid) === 'inconclusive') lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The verdict of a share (one side) or a difference of shares (two) at a level, the counts scaled by `scale`. */
export function scaledRateVerdict(
  a: { count: number; events: number },
  b: { count: number; events: number } | null,
  tolerance: number,
  level: Level,
  scale: number,
): VerdictName {
  const sa = { count: a.count * scale, events: a.events * scale };
  if (b === null) return verdictOf(wilson(sa.events, sa.count, level.z), tolerance);
  return verdictOf(newcombe(sa, { count: b.count * scale, events: b.events * scale }, level.z), tolerance);
}
