import { describe, expect, it } from 'vitest';
import { fixedLevel, lookLevel } from '../../src/verdict/look-level.js';
import { normalQuantile } from '../../src/verdict/normal-quantile.js';
import { quantileInterval, quantileOf } from '../../src/verdict/quantile-interval.js';
import { newcombe, wilson } from '../../src/verdict/rate-interval.js';
import { growthToDecide, quantileRatioVerdict, rateIncreaseVerdict, rateVerdict, scaledRateVerdict, verdictOf } from '../../src/verdict/three-verdicts.js';

const near = (a: number, b: number, eps = 1e-4) => Math.abs(a - b) < eps;

describe('the statistics of a verdict', () => {
  it('the normal quantile matches the table', () => {
    expect(near(normalQuantile(0.975), 1.959964)).toBe(true);
    expect(near(normalQuantile(0.995), 2.575829)).toBe(true);
    expect(near(normalQuantile(0.5), 0)).toBe(true);
    expect(near(normalQuantile(1e-6), -4.753424)).toBe(true);
    expect(normalQuantile(0)).toBe(Number.NEGATIVE_INFINITY);
  });

  it("Wilson's and Newcombe's intervals match the published examples", () => {
    // Newcombe (1998), Statistics in Medicine 17, table II: 56/70 − 48/80, 95 %: 0.0524 to 0.3339
    const z = fixedLevel(0.05).z;
    const d = newcombe({ events: 56, count: 70 }, { events: 48, count: 80 }, z);
    expect([d.low, d.high].map((x) => Math.round(x * 10_000) / 10_000)).toEqual([0.0524, 0.3339]);
    // 0 of 10: Wilson's upper bound 0.2775 (a Wald interval would be 0 wide)
    expect(Math.round(wilson(0, 10, z).high * 10_000) / 10_000).toBe(0.2775);
    expect(wilson(0, 0, z)).toEqual({ low: 0, high: 1 });
  });

  it('α spent over the looks adds up to α however many there are, each look stricter than the last', () => {
    let spent = 0;
    for (let k = 1; k <= 100_000; k += 1) spent += lookLevel(0.02, k).alpha;
    expect(spent).toBeLessThan(0.02);
    expect(spent).toBeGreaterThan(0.0199);
    expect(lookLevel(0.02, 1).alpha).toBe(0.01);
    expect(lookLevel(0.02, 10).z).toBeGreaterThan(lookLevel(0.02, 2).z);
  });

  it('the three-way rule: wholly above fails, wholly below passes, holding the tolerance is inconclusive', () => {
    expect(verdictOf({ low: 0.02, high: 0.05 }, 0.01)).toBe('fail');
    expect(verdictOf({ low: -0.01, high: 0.004 }, 0.005)).toBe('pass');
    expect(verdictOf({ low: -0.01, high: 0.02 }, 0.005)).toBe('inconclusive');
    expect(verdictOf({ low: 0, high: null }, 5)).toBe('inconclusive');
  });

  it('below the minimum of a side a verdict is inconclusive and says which side lacks how many', () => {
    const v = rateIncreaseVerdict({
      measure: 'm',
      tolerance: 0,
      minimum: 200,
      level: lookLevel(0.02, 1),
      look: 1,
      a: { side: 'native requests', count: 500, events: 400 },
      b: { side: 'translated requests', count: 150, events: 0 },
    });
    expect(v).toMatchObject({ verdict: 'inconclusive', interval: null, why: '150 of the 200 translated requests needed (the minimum per side)' });
    expect(v.sides.map((s) => s.count)).toEqual([500, 150]);
  });

  it('a quantile interval from a histogram: the true p99 inside, no upper bound when too few values lie above it', () => {
    const buckets = Array.from({ length: 100 }, (_, i) => ({ low: i, high: i + 1, count: 100 }));
    const q = quantileInterval(buckets, 0.99, 2.576);
    expect(q.low).toBeLessThanOrEqual(99);
    expect(q.high).toBeGreaterThanOrEqual(99);
    expect(quantileOf(buckets, 0.5)).toBe(50);
    expect(quantileInterval([{ low: 0, high: 1, count: 200 }], 0.99, 2.576).high).toBeNull();
    const ratio = quantileRatioVerdict({
      measure: 'r',
      tolerance: 1.5,
      minimum: 200,
      level: fixedLevel(0.02),
      look: null,
      q: 0.99,
      a: { side: 'native requests', buckets: buckets.map((b) => ({ low: b.low * 3, high: b.high * 3, count: b.count })) },
      b: { side: 'translated requests', buckets },
    });
    expect(ratio).toMatchObject({ verdict: 'fail', estimate: 3 });
  });

  it('how many more reads would decide: none when the estimate sits on the tolerance', () => {
    const level = fixedLevel(0.02);
    const a = { count: 300, events: 3 };
    expect(rateVerdict({ measure: 'm', tolerance: 0.005, minimum: 200, level, look: null, side: { side: 's', ...a } }).verdict).toBe('inconclusive');
    const scale = growthToDecide((s) => scaledRateVerdict(a, null, 0.005, level, s)) as number;
    expect(scale).toBeGreaterThan(1);
    expect(scaledRateVerdict(a, null, 0.005, level, scale)).toBe('fail');
    expect(growthToDecide((s) => scaledRateVerdict({ count: 300, events: 3 }, { count: 300, events: 3 }, 0, level, s))).toBeNull();
  });
});
