import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyTally, type IntervalTally } from '../../src/rollout/interval-tally.js';
import { parseRollout } from '../../src/rollout/rollout-config.js';
import { afterInterval, type IntervalResult, type RouteProgress, type Schedule, scheduleOf, startProgress } from '../../src/rollout/route-progress.js';
import { binomial, seededRandom } from '../support/seeded-random.js';

const MIN = 60_000;

/** A route at a native share held an hour (it never promotes during a run), judged by its error check alone. */
function schedule(analysis: Record<string, unknown>): Schedule {
  const parsed = parseRollout(
    JSON.stringify({ routes: [{ resource: 'groups', steps: [{ native: 50, pause: '1h' }, { native: 100 }], analysis: { interval: '60s', ...analysis } }] }),
  );
  if (!parsed.ok) throw new Error(parsed.error);
  const route = parsed.config.routes[0];
  if (!route?.steps || !route.analysis) throw new Error('no steps');
  return scheduleOf(route.steps, route.analysis, route.shadow);
}

function interval(random: () => number, perSide: number, native: number, translate: number): IntervalTally {
  const t = emptyTally();
  t.requests = { native: perSide, translate: perSide };
  t.errors = { native: binomial(random, perSide, native), translate: binomial(random, perSide, translate) };
  return t;
}

/** One rollout: `intervals` of `perSide` requests a side, the step judged after each; the first decisive verdict and its interval. */
function run(s: Schedule, seed: number, rates: { native: number; translate: number }, perSide: number, intervals: number) {
  const random = seededRandom(seed);
  let p: RouteProgress = startProgress(s, 0);
  const results: IntervalResult[] = [];
  for (let i = 0; i < intervals; i += 1) {
    const now = (i + 1) * MIN;
    p = afterInterval(s, p, { index: i, endedAt: now }, interval(random, perSide, rates.native, rates.translate), now).progress;
    const r = p.history.at(-1) as IntervalResult;
    results.push(r);
    if (r.verdict === 'fail') return { fail: i + 1, results };
  }
  return { fail: null, results };
}

const RUNS = 1000;

describe('verdicts, simulated (seeded, no sockets)', () => {
  it('(a) the same 1 % on both sides, judged every interval for 20 intervals of 500 a side: a false fail in at most 1 % of runs', () => {
    for (const tolerance of [0, 0.005]) {
      const s = schedule({ maxErrorRateIncrease: tolerance });
      let falseFails = 0;
      for (let seed = 1; seed <= RUNS; seed += 1) if (run(s, seed, { native: 0.01, translate: 0.01 }, 500, 20).fail !== null) falseFails += 1;
      // measured: 2 of 1,000 at a tolerance of 0, none at 0.005 (the bound the method guarantees is 2 %)
      expect(falseFails / RUNS, `tolerance ${tolerance}`).toBeLessThanOrEqual(0.01);
    }
  });

  it('(b) none in 1,000 against 5 in 1,000: a fail in at least 90 % of runs by 5,000 requests a side', () => {
    const s = schedule({ maxErrorRateIncrease: 0 });
    let failed = 0;
    for (let seed = 1; seed <= RUNS; seed += 1) if (run(s, 100_000 + seed, { native: 0.005, translate: 0 }, 500, 10).fail !== null) failed += 1;
    // measured: 942 of 1,000
    expect(failed / RUNS).toBeGreaterThanOrEqual(0.9);
  });

  it('(c) below the minimum sample on a side: always inconclusive, never a fail or a promotion', () => {
    const s = schedule({ maxErrorRateIncrease: 0, maxErrorRate: 0, minSamples: 200 });
    fc.assert(
      fc.property(fc.nat(199), fc.nat(100_000), fc.nat(199), (short, long, errors) => {
        const native = short;
        const t = emptyTally();
        t.requests = { native, translate: long };
        t.errors = { native: Math.min(errors, native), translate: 0 };
        const after = afterInterval(s, startProgress(s, 0), { index: 0, endedAt: MIN }, t, 60 * MIN);
        const r = after.progress.history.at(-1) as IntervalResult;
        expect(r.verdict).toBe('inconclusive');
        expect(r.checks.every((c) => c.verdict === 'inconclusive' && c.interval === null)).toBe(true);
        expect(after.progress.step).toBe(0);
        expect(after.progress.state === 'paused' && after.progress.pausedBy === 'inconclusive').toBe(true);
        // no α is spent on a look that tested nothing
        expect(after.progress.looks).toBe(0);
      }),
    );
  });

  it('(d) every verdict carries its numbers: per side the count, the events and the estimate; the interval, its level, the tolerance, the method', () => {
    const s = schedule({ maxErrorRateIncrease: 0.002, maxErrorRate: 0.05 });
    for (let seed = 1; seed <= 50; seed += 1) {
      const { results } = run(s, 7_000 + seed, { native: 0.004 * (seed % 5), translate: 0.002 }, 300, 5);
      for (const r of results) {
        for (const c of r.checks) {
          expect(c.sides.length).toBeGreaterThan(0);
          for (const side of c.sides) expect(side).toMatchObject({ count: expect.any(Number), events: expect.any(Number), estimate: expect.any(Number) });
          expect(c).toMatchObject({ tolerance: expect.any(Number), method: expect.any(String), minimum: 200, look: r.look, why: expect.any(String) });
          expect(c.interval?.low).toEqual(expect.any(Number));
          expect(c.interval?.high).toEqual(expect.any(Number));
          expect(c.level).toBeGreaterThan(0.98);
          expect(c.estimate).toEqual(expect.any(Number));
        }
      }
    }
  });
});
