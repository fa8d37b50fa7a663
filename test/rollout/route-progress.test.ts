import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import { countServed, emptyTally, type IntervalTally, quantileMs, tallyCounts, tallyOf } from '../../src/rollout/interval-tally.js';
import { durationMs, parseRollout } from '../../src/rollout/rollout-config.js';
import {
  afterInterval,
  commandProgress,
  judgeInterval,
  type IntervalResult,
  latestChecks,
  type ProgressAction,
  type ProgressEvent,
  type RouteProgress,
  type Schedule,
  scheduleOf,
  shareOf,
  startProgress,
} from '../../src/rollout/route-progress.js';

const MIN = 60_000;

/** The schedule of the documented example: a shadow stage, 5 %, 25 %, 100 %. */
function schedule(analysis: Record<string, unknown> = {}): Schedule {
  const parsed = parseRollout(
    JSON.stringify({
      routes: [
        {
          resource: 'groups',
          operations: ['list', 'get'],
          steps: [{ shadow: 100, until: { compared: 3000, maxDiffRate: 0.01 } }, { native: 5, pause: '10m' }, { native: 25, pause: '30m' }, { native: 100 }],
          analysis: { interval: '60s', minSamples: 50, maxErrorRate: 0.05, maxLatencyRatio: 1.5, maxDiffRate: 0.05, failureLimit: 2, ...analysis },
        },
      ],
    }),
  );
  if (!parsed.ok) throw new Error(parsed.error);
  const route = parsed.config.routes[0];
  if (!route?.steps || !route.analysis) throw new Error('no steps');
  return scheduleOf(route.steps, route.analysis, route.shadow);
}

interface Traffic {
  native?: number;
  nativeErrors?: number;
  translate?: number;
  translateErrors?: number;
  nativeMs?: number;
  translateMs?: number;
  compared?: number;
  differed?: number;
}

function tally(t: Traffic): IntervalTally {
  const out = emptyTally();
  for (let i = 0; i < (t.native ?? 0); i += 1) countServed(out, 'native', i < (t.nativeErrors ?? 0), t.nativeMs ?? 10);
  for (let i = 0; i < (t.translate ?? 0); i += 1) countServed(out, 'translate', i < (t.translateErrors ?? 0), t.translateMs ?? 10);
  out.compared = t.compared ?? 0;
  out.differed = t.differed ?? 0;
  out.unequal = t.differed ?? 0;
  return out;
}

/** A route driven interval by interval over a test clock: each call judges the next interval with `traffic`. */
function drive(s: Schedule, start = Date.parse('2026-06-01T00:00:00Z')) {
  let p = startProgress(s, start);
  const events: ProgressEvent[] = [];
  let now = start;
  return {
    get p(): RouteProgress {
      return p;
    },
    events,
    interval(traffic: Traffic, minutes = 1): IntervalResult {
      now += minutes * MIN;
      const index = Math.floor((now - p.stepStartedAt) / MIN) - 1;
      const t = afterInterval(s, p, { index, endedAt: now }, tally(traffic), now);
      p = t.progress;
      events.push(...t.events);
      return p.history.at(-1) as IntervalResult;
    },
    command(action: ProgressAction, reason = '') {
      const made = commandProgress(s, p, action, now, 'admin', reason);
      if (made.ok) {
        p = made.transition.progress;
        events.push(...made.transition.events);
      }
      return made;
    },
    get now() {
      return now;
    },
  };
}

// enough in one interval for every check to decide at once: the p99's interval needs about 2,000 requests a side
const healthy: Traffic = { native: 2000, translate: 20_000, compared: 2000 };
const path = (events: ProgressEvent[]) => events.map((e) => `${e.to.state}@${e.to.step + 1}`);
const check = (r: IntervalResult, name: string) => r.checks.find((c) => c.check === name);

describe('progressive rollout: the state machine over a test clock', () => {
  it('promotes through every step: the shadow stage until its compared reads, each pause held, then the last step', () => {
    const s = schedule();
    const r = drive(s);
    expect(r.p).toMatchObject({ state: 'shadowing', step: 0, stage: 1, looks: 0 });
    expect(shareOf(s, r.p)).toEqual({ native: 0, shadow: 100 });

    // the shadow stage waits for 3,000 compared reads, even when its diff check passes
    expect(r.interval({ compared: 2000 }).verdict).toBe('pass');
    expect(r.p).toMatchObject({ state: 'shadowing', step: 0, compared: 2000, looks: 1 });
    r.interval({ compared: 2000 });
    expect(r.p).toMatchObject({ state: 'progressing', step: 1, compared: 0, evaluated: -1, observed: {}, looks: 2 });
    expect(shareOf(s, r.p)).toEqual({ native: 5, shadow: 0 });

    // 5 % is held 10 minutes: nine passing intervals wait, the tenth moves on
    for (let i = 0; i < 9; i += 1) r.interval(healthy);
    expect(r.p.step).toBe(1);
    // the step's checks are judged on all it saw: nine intervals of 2,000 native requests
    expect(check(r.p.history.at(-1) as IntervalResult, 'maxErrorRate')?.sides).toEqual([{ side: 'native requests', count: 18_000, events: 0, estimate: 0 }]);
    r.interval(healthy);
    expect(r.p).toMatchObject({ state: 'progressing', step: 2 });
    for (let i = 0; i < 30; i += 1) r.interval(healthy);
    expect(r.p).toMatchObject({ state: 'promoted', step: 3 });
    expect(shareOf(s, r.p)).toEqual({ native: 100, shadow: 0 });
    expect(path(r.events)).toEqual(['progressing@2', 'progressing@3', 'promoted@4']);
    expect(r.events.every((e) => e.by === 'analysis' && e.figures?.verdict === 'pass')).toBe(true);

    // a promoted route keeps its intervals (the last 30; older ones without their checks' numbers), and nothing moves it any more
    r.interval({ native: 60, nativeErrors: 60 });
    expect(r.p.state).toBe('promoted');
    expect(r.p.history).toHaveLength(30);
    expect(r.p.history[0]?.checks.every((c) => c.sides.length === 0)).toBe(true);
  });

  it('a step below its minimum sample waits (never a failure), its reason the numbers, until a verdict; an error verdict shows them', () => {
    const s = schedule();
    const r = drive(s);
    r.command('promote');
    expect(r.p).toMatchObject({ state: 'progressing', step: 1 });
    const quiet = r.interval({ native: 10, translate: 200 });
    expect(quiet).toMatchObject({ verdict: 'inconclusive', decidedBy: 'maxErrorRate' });
    expect(check(quiet, 'maxErrorRate')).toMatchObject({
      verdict: 'inconclusive',
      interval: null,
      why: '10 of the 50 native requests needed (the minimum per side)',
    });
    expect(r.p).toMatchObject({ state: 'paused', pausedBy: 'inconclusive', failures: 0 });
    expect(r.p.reason).toBe('maxErrorRate: waiting: 10 of the 50 native requests needed (the minimum per side) (native requests: 0 of 10 (0 %))');
    expect(shareOf(s, r.p).native).toBe(5);
    // still short: no new event, the reason counts on; then 200 failing of 2,040 native requests: a fail, and the analysis resumes
    r.interval({ native: 30 });
    expect(r.p.reason).toMatch(/40 of the 50 native requests needed/);
    const failing = r.interval({ native: 2000, nativeErrors: 200, translate: 20_000 });
    expect(failing).toMatchObject({ verdict: 'fail', decidedBy: 'maxErrorRate' });
    const errors = check(failing, 'maxErrorRate');
    expect(errors).toMatchObject({ measure: 'native error rate', method: 'Wilson score interval', tolerance: 0.05, minimum: 50, look: 1, level: 0.99 });
    expect(errors?.sides).toEqual([{ side: 'native requests', count: 2040, events: 200, estimate: 0.098039 }]);
    expect((errors?.interval?.low ?? 0) > 0.05 && (errors?.interval?.high ?? 0) > 0.098).toBe(true);
    expect(r.p).toMatchObject({ state: 'progressing', failures: 1, pausedBy: null });
    expect(path(r.events)).toEqual(['progressing@2', 'waiting@2', 'progressing@2']);
  });

  it('failureLimit failing looks in a row abort with the reason and the numbers; an abort never resumes by itself', () => {
    const s = schedule();
    const r = drive(s);
    r.command('promote');
    const failing: Traffic = { native: 2000, nativeErrors: 400, translate: 20_000 };
    r.interval(failing);
    expect(r.p).toMatchObject({ state: 'progressing', failures: 1 });
    const second = r.interval(failing);
    expect(second).toMatchObject({ verdict: 'fail', decidedBy: 'maxErrorRate', errorRate: { native: 0.2 }, look: 2 });
    expect(r.p.state).toBe('aborted');
    expect(r.p.lastAbort?.reason).toMatch(
      /^maxErrorRate: the interval \[1[89]\.\d+ %, 2[01]\.\d+ %\] lies wholly above the tolerance 5 % \(native requests: 800 of 4000 \(20 %\)\) in 2 intervals in a row$/,
    );
    expect(r.p.lastAbort?.figures).toMatchObject({ requests: { native: 2000, translate: 20_000 }, verdict: 'fail' });
    expect(shareOf(s, r.p)).toEqual({ native: 0, shadow: 0 });
    for (let i = 0; i < 20; i += 1) r.interval(healthy);
    expect(r.p.state).toBe('aborted');
  });

  it('the error check by default: native against translated failures, a rise past 0.5 points fails, the same rate passes', () => {
    const s = schedule({ maxErrorRate: undefined, maxLatencyRatio: undefined, maxDiffRate: undefined });
    expect(s.analysis).toMatchObject({ maxErrorRateIncrease: 0.005, minSamples: 50, confidence: 0.98 });
    const same = drive(s);
    same.command('promote');
    const ok = same.interval({ native: 5000, nativeErrors: 50, translate: 50_000, translateErrors: 500 });
    expect(check(ok, 'maxErrorRateIncrease')).toMatchObject({
      verdict: 'pass',
      measure: 'native error rate − translated error rate',
      method: 'Newcombe hybrid score interval',
      estimate: 0,
    });
    const worse = drive(s);
    worse.command('promote');
    const bad = worse.interval({ native: 2000, nativeErrors: 60, translate: 20_000, translateErrors: 200 });
    expect(check(bad, 'maxErrorRateIncrease')).toMatchObject({ verdict: 'fail', estimate: 0.02 });
    expect(check(bad, 'maxErrorRateIncrease')?.sides.map((x) => [x.side, x.count, x.events])).toEqual([
      ['native requests', 2000, 60],
      ['translated requests', 20_000, 200],
    ]);
  });

  it('an interval that saw nothing new is no new look: the same numbers at the same level, no α spent', () => {
    const s = schedule();
    const r = drive(s);
    r.command('promote');
    const first = r.interval({ native: 100, translate: 1000 });
    expect(r.p.looks).toBe(1);
    const quiet = r.interval({});
    expect(r.p.looks).toBe(1);
    expect(check(quiet, 'maxErrorRate')).toEqual(check(first, 'maxErrorRate'));
    r.interval({ native: 10 });
    expect(r.p.looks).toBe(2);
  });

  it('a state the earlier analysis stored (no step totals, no looks, checks without numbers) is judged on and shown', () => {
    const s = schedule();
    const stored = {
      ...startProgress(s, 0),
      step: 1,
      state: 'progressing',
      history: [
        {
          step: 1,
          index: 0,
          endedAt: 0,
          verdict: 'pass',
          decidedBy: null,
          checks: [{ check: 'maxErrorRate', value: 0, limit: 0.01, applies: true, passed: true, dryRun: false }],
        },
      ],
    } as unknown as RouteProgress;
    delete (stored as Partial<RouteProgress>).observed;
    delete (stored as Partial<RouteProgress>).looks;
    expect(latestChecks(stored)).toEqual([]);
    const after = afterInterval(s, stored, { index: 1, endedAt: MIN }, tally(healthy), MIN).progress;
    expect(after).toMatchObject({ looks: 1, observed: { 'r.n': 2000 } });
    expect(latestChecks(after).map((c) => [c.check, c.verdict])).toEqual([
      ['maxErrorRate', 'pass'],
      ['maxLatencyRatio', 'pass'],
      ['maxDiffRate', 'inconclusive'],
    ]);
  });

  it('a dryRun check is evaluated and shown, never acts; the same check not in dryRun fails the step', () => {
    const slow: Traffic = { native: 2000, nativeMs: 40, translate: 20_000, translateMs: 10, compared: 2000 };
    const dry = drive(schedule({ dryRun: ['maxLatencyRatio'] }));
    dry.command('promote');
    const shown = dry.interval(slow);
    expect(shown.verdict).toBe('pass');
    expect(check(shown, 'maxLatencyRatio')).toMatchObject({ verdict: 'fail', dryRun: true, applies: true, unit: 'ratio' });
    expect((check(shown, 'maxLatencyRatio')?.estimate ?? 0) > 3).toBe(true);
    dry.interval(slow);
    expect(dry.p.state).toBe('progressing');

    const live = drive(schedule());
    live.command('promote');
    expect(live.interval(slow)).toMatchObject({ verdict: 'fail', decidedBy: 'maxLatencyRatio' });
    live.interval(slow);
    expect(live.p.state).toBe('aborted');
    expect(live.p.lastAbort?.reason).toMatch(
      /^maxLatencyRatio: the interval \[[\d.]+×, [\d.]+×\] lies wholly above the tolerance 1\.5× \(native requests: [\d.]+ ms of 4000, /,
    );
  });

  it('the shadow stage: waits under its minimum of compared reads, aborted when its compared reads differ too often', () => {
    const s = schedule({ maxDiffRate: 0.5 });
    const r = drive(s);
    expect(r.interval({ compared: 20 }).verdict).toBe('inconclusive');
    expect(r.p.state).toBe('paused');
    // the diff check (0.5) passes on the step's reads, but the step's gate asks for 1 %
    r.interval({ compared: 2000, differed: 60 });
    expect(r.p).toMatchObject({ state: 'shadowing', compared: 2020, differed: 60 });
    r.interval({ compared: 2000, differed: 0 });
    expect(r.p.state).toBe('aborted');
    expect(r.p.lastAbort?.reason).toBe("the step's differences: 60 of 4020 compared reads (0.0149) above 0.01");
  });

  it('checks a step cannot measure do not apply: error and latency checks in a shadow stage, diff checks without a shadow share', () => {
    const s = schedule();
    const shadowing = judgeInterval(s, startProgress(s, 0), { index: 0, endedAt: 0 }, tally({ compared: 2000 }));
    expect(shadowing.verdict).toBe('pass');
    expect(shadowing.checks.map((c) => [c.check, c.applies])).toEqual([
      ['maxErrorRate', false],
      ['maxLatencyRatio', false],
      ['maxDiffRate', true],
    ]);
    expect(check(shadowing, 'maxErrorRate')?.why).toBe('not measured at this step: it serves no native share');
    const at2 = { ...startProgress(s, 0), step: 1 };
    const native = judgeInterval(s, at2, { index: 0, endedAt: 0 }, tally({ native: 2000, translate: 20_000 }));
    expect(native.checks.map((c) => [c.check, c.applies])).toEqual([
      ['maxErrorRate', true],
      ['maxLatencyRatio', true],
      ['maxDiffRate', false],
    ]);
  });

  it('manual transitions: pause holds the step (and failures still abort), resume, promote skips, abort, retry starts over', () => {
    const s = schedule();
    const r = drive(s);
    expect(r.command('pause', 'looking at the report')).toMatchObject({ ok: true });
    expect(r.p).toMatchObject({ state: 'paused', pausedBy: 'operator', reason: 'pause by admin: looking at the report' });
    // passing intervals do not move an operator's pause on
    for (let i = 0; i < 3; i += 1) r.interval({ compared: 2000 });
    expect(r.p).toMatchObject({ state: 'paused', step: 0 });
    expect(r.command('resume').ok).toBe(true);
    expect(r.p.state).toBe('shadowing');
    expect(r.command('resume')).toEqual({ ok: false, reason: 'the route is shadowing, not paused' });
    r.command('promote');
    r.command('promote');
    expect(r.p).toMatchObject({ state: 'progressing', step: 2 });
    r.command('pause');
    r.interval({ native: 2000, nativeErrors: 2000, translate: 2000 });
    r.interval({ native: 2000, nativeErrors: 2000, translate: 2000 });
    expect(r.p.state).toBe('aborted');
    expect(r.p.looks).toBe(5);
    expect(r.command('promote')).toMatchObject({ ok: false });
    expect(r.command('abort')).toEqual({ ok: false, reason: 'the route is aborted already' });
    expect(r.command('retry', 'fixed the backend').ok).toBe(true);
    // a retry is a new rollout: its looks start again
    expect(r.p).toMatchObject({ state: 'shadowing', step: 0, failures: 0, looks: 0 });
    expect(r.p.lastAbort?.reason).toMatch(/^maxErrorRate: the interval \[9\d\.\d+ %, 100 %\] lies wholly above the tolerance 5 %/);
    expect(r.command('retry')).toMatchObject({ ok: false });
    expect(r.command('abort', 'not today').ok).toBe(true);
    expect(r.p.lastAbort?.reason).toBe('abort by admin: not today');
    expect(path(r.events)).toEqual(['paused@1', 'shadowing@1', 'progressing@2', 'progressing@3', 'paused@3', 'aborted@3', 'shadowing@1', 'aborted@1']);
    expect(r.events.filter((e) => e.by === 'admin')).toHaveLength(7);
  });
});

describe('progressive rollout: its parts', () => {
  it('the rollout file: steps instead of native, analysis only with steps, durations, every problem named', () => {
    const bad = parseRollout(
      'routes:\n  - resource: groups\n    native: 5\n    steps: [{native: 5}]\n  - resource: roles\n    analysis: {interval: 60s}\n' +
        '  - resource: tags\n    steps: [{native: 5, pause: soon}]\n',
    );
    expect(bad).toMatchObject({ ok: false });
    expect(!bad.ok && bad.error).toMatch(/routes\[2\]\.steps\[0\]\.pause: must be seconds \(a number\) or a duration such as 60s, 10m, 1h/);
    const both = parseRollout('routes:\n  - resource: groups\n    native: 5\n    steps: [{native: 5}]\n  - resource: roles\n    analysis: {interval: 60s}\n');
    expect(both).toEqual({
      ok: false,
      error: 'routes[0]: give either native (a fixed share) or steps, not both; routes[1].analysis: only a route with steps is analysed',
    });
    expect([durationMs('500ms'), durationMs('60s'), durationMs('10m'), durationMs('1h'), durationMs(90)]).toEqual([500, 60_000, 600_000, 3_600_000, 90_000]);
    const defaults = parseRollout('routes:\n  - resource: groups\n    steps: [{native: 50}, {native: 100}]\n');
    expect(defaults.ok && defaults.config.routes[0]?.analysis).toBeUndefined();
  });

  it('the example schedules parse against the real resources', () => {
    const known = new Map(loadMappings().map((r) => [r.mapping.resource, r.mapping.v2.operations]));
    for (const name of ['progressive-rollout.yaml', 'rollout.yaml']) {
      const parsed = parseRollout(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8'), known);
      expect(parsed, name).toMatchObject({ ok: true });
      expect(parsed.ok && parsed.config.routes.some((r) => r.steps !== undefined)).toBe(true);
    }
  });

  it('latency figures: a p99 within a bucket of the real one, and tallies survive their trip through named counters', () => {
    const t = emptyTally();
    for (let i = 1; i <= 1000; i += 1) countServed(t, 'native', false, i / 10);
    const p99 = quantileMs(t.latency.native, 0.99) as number;
    expect(p99).toBeGreaterThanOrEqual(99);
    expect(p99).toBeLessThan(99 * 1.19);
    expect(quantileMs({}, 0.99)).toBeNull();
    countServed(t, 'translate', true, 3);
    t.compared = 7;
    t.differed = 2;
    t.unequal = 3;
    t.noise = 4;
    t.noiseUnequal = 1;
    expect(tallyOf(tallyCounts(t))).toEqual(t);
    // counters from elsewhere are untrusted: negative, unknown and impossible figures are left out
    expect(tallyOf({ 'r.n': -5, 'e.n': 3, c: 1, d: 9, 'l.n.999': 4, junk: 1 })).toMatchObject({ requests: { native: 0 }, errors: { native: 0 }, differed: 1 });
  });
});
