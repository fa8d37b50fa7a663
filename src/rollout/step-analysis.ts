import { fixedLevel, lookLevel } from '../verdict/look-level.js';
import { METHODS, quantileRatioVerdict, rateIncreaseVerdict, rateVerdict, type Verdict, type VerdictName } from '../verdict/three-verdicts.js';
import type { AnalysisCheck, AnalysisConfig, RolloutStep } from './rollout-config.js';
import { bucketsOf, type IntervalTally } from './interval-tally.js';

/** One check of a step, judged on everything the step saw so far: its verdict with its numbers. */
export interface CheckResult extends Verdict {
  check: AnalysisCheck;
  /** false when the step cannot measure it (no native share for an error or latency check, no shadow share for a diff check) */
  applies: boolean;
  dryRun: boolean;
}

/** What a step's checks add up to, and which check decided it (`minSamples`: no check applies and the step saw too little). */
export interface StepVerdict {
  verdict: VerdictName;
  decidedBy: AnalysisCheck | 'minSamples' | null;
  checks: CheckResult[];
  /** whether any check had its minimum sample: only then did this look spend part of α */
  tested: boolean;
}

/** What each check measures and how: the analysis uses these words, the docs' table is written from them. */
export const CHECK_FACTS: readonly { check: AnalysisCheck; measure: string; sides: string; method: string; needs: string }[] = [
  {
    check: 'maxErrorRate',
    measure: 'native error rate',
    sides: 'native requests, their 5xx answers and transport failures',
    method: METHODS.rate,
    needs: 'a native share',
  },
  {
    check: 'maxErrorRateIncrease',
    measure: 'native error rate − translated error rate',
    sides: 'native and translated requests, their 5xx answers and transport failures',
    method: METHODS.rateIncrease,
    needs: 'a native share',
  },
  {
    check: 'maxLatencyRatio',
    measure: 'native latency quantile / translated latency quantile (`latencyQuantile`, p99 by default)',
    sides: 'native and translated requests, their latency histograms (buckets 19 % wide)',
    method: METHODS.quantileRatio,
    needs: 'a native share',
  },
  {
    check: 'maxDiffRate',
    measure: 'share of compared reads with a reported difference',
    sides: 'compared reads, those with a difference above its field’s noise',
    method: METHODS.rate,
    needs: 'a shadow share',
  },
  {
    check: 'maxDiffRateIncrease',
    measure: 'differing share of compared reads − of the noise arm',
    sides: 'compared reads with any difference; noise reads (the serving side asked twice) whose answers differ; without a noise arm, against none',
    method: `${METHODS.rateIncrease} (${METHODS.rate} without a noise arm)`,
    needs: 'a shadow share',
  },
  {
    check: 'maxWriteDiffRate',
    measure: 'share of verified writes with a difference',
    sides: 'writes read back and checked (`verifyWrites`), those differing in their intent, their answer or the other side',
    method: METHODS.rate,
    needs: 'a verifyWrites share',
  },
];

const measureOf = (check: AnalysisCheck) => (CHECK_FACTS.find((f) => f.check === check) as (typeof CHECK_FACTS)[number]).measure;

const notMeasured = (check: AnalysisCheck, tolerance: number, minimum: number, dryRun: boolean, why: string): CheckResult => ({
  check,
  applies: false,
  dryRun,
  verdict: 'inconclusive',
  measure: measureOf(check),
  unit: check === 'maxLatencyRatio' ? 'ratio' : 'share',
  sides: [],
  estimate: null,
  interval: null,
  level: null,
  passInterval: null,
  passLevel: null,
  tolerance,
  minimum,
  method: 'not measured',
  look: null,
  why,
});

/**
 * Judges a step's checks on its totals at look `look` of the rollout: a fail at that look's share
 * of α (α spent over every look of the rollout, so a false fail stays at most α however long it
 * runs), a pass at the fixed level 1 − α (a clean step needs the same traffic to pass at its first
 * look or its three hundredth). The error checks and the latency check need a native share, the
 * diff checks a shadow share.
 */
export function judgeStep(
  analysis: AnalysisConfig,
  step: RolloutStep,
  route: { shadow: number; noise: boolean; verifyWrites?: number },
  totals: IntervalTally,
  look: number,
): StepVerdict {
  const level = lookLevel(1 - analysis.confidence, look);
  const passLevel = fixedLevel(1 - analysis.confidence);
  const minimum = analysis.minSamples;
  const native = { side: 'native requests', count: totals.requests.native, events: totals.errors.native };
  const translate = { side: 'translated requests', count: totals.requests.translate, events: totals.errors.translate };
  const compared = { side: 'compared reads', count: totals.compared };
  const servesNative = step.native > 0;
  const shadows = (step.shadow ?? route.shadow) > 0;
  const checks: CheckResult[] = [];
  const add = (
    check: AnalysisCheck,
    measures: boolean,
    why: string,
    judge: (tolerance: number, common: { minimum: number; level: typeof level; passLevel: typeof level; look: number }) => Verdict,
  ) => {
    const tolerance = analysis[check];
    if (tolerance === undefined) return;
    const dryRun = analysis.dryRun.includes(check);
    if (!measures) checks.push(notMeasured(check, tolerance, minimum, dryRun, why));
    else checks.push({ check, applies: true, dryRun, ...judge(tolerance, { minimum, level, passLevel, look }) });
  };
  const noNative = 'not measured at this step: it serves no native share';
  const noShadow = 'not measured at this step: it compares no reads';
  const verifies = (route.verifyWrites ?? 0) > 0;
  add('maxErrorRate', servesNative, noNative, (tolerance, c) => rateVerdict({ ...c, measure: measureOf('maxErrorRate'), tolerance, side: native }));
  add('maxErrorRateIncrease', servesNative, noNative, (tolerance, c) =>
    rateIncreaseVerdict({ ...c, measure: measureOf('maxErrorRateIncrease'), tolerance, a: native, b: translate }),
  );
  add('maxLatencyRatio', servesNative, noNative, (tolerance, c) =>
    quantileRatioVerdict({
      ...c,
      measure: `native p${analysis.latencyQuantile * 100} / translated p${analysis.latencyQuantile * 100}`,
      tolerance,
      q: analysis.latencyQuantile,
      a: { side: 'native requests', buckets: bucketsOf(totals.latency.native) },
      b: { side: 'translated requests', buckets: bucketsOf(totals.latency.translate) },
    }),
  );
  add('maxDiffRate', shadows, noShadow, (tolerance, c) =>
    rateVerdict({ ...c, measure: measureOf('maxDiffRate'), tolerance, side: { ...compared, events: totals.differed } }),
  );
  add('maxDiffRateIncrease', shadows, noShadow, (tolerance, c) =>
    route.noise
      ? rateIncreaseVerdict({
          ...c,
          measure: measureOf('maxDiffRateIncrease'),
          tolerance,
          a: { ...compared, events: totals.unequal },
          b: { side: 'noise reads', count: totals.noise, events: totals.noiseUnequal },
        })
      : rateVerdict({ ...c, measure: 'differing share of compared reads (no noise arm)', tolerance, side: { ...compared, events: totals.unequal } }),
  );
  add('maxWriteDiffRate', verifies, 'not measured: the route verifies no writes', (tolerance, c) =>
    rateVerdict({
      ...c,
      measure: measureOf('maxWriteDiffRate'),
      tolerance,
      side: { side: 'verified writes', count: totals.verified, events: totals.writeDiffered },
    }),
  );
  const acting = checks.filter((c) => c.applies && !c.dryRun);
  const tested = checks.some((c) => c.interval !== null);
  const failing = acting.find((c) => c.verdict === 'fail');
  if (failing) return { verdict: 'fail', decidedBy: failing.check, checks, tested };
  if (acting.length === 0) {
    const counted = servesNative ? totals.requests.native : totals.compared;
    return { verdict: counted < minimum ? 'inconclusive' : 'pass', decidedBy: counted < minimum ? 'minSamples' : null, checks, tested };
  }
  const open = acting.find((c) => c.verdict === 'inconclusive');
  return open ? { verdict: 'inconclusive', decidedBy: open.check, checks, tested } : { verdict: 'pass', decidedBy: null, checks, tested };
}
