import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import { countServed, emptyTally, type IntervalTally, quantileMs, tallyCounts, tallyOf } from '../../src/rollout/interval-tally.js';
import { durationMs, parseRollout } from '../../src/rollout/rollout-config.js';
import {
  afterInterval,
  commandProgress,
  judgeInterval,
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
          steps: [{ shadow: 100, until: { compared: 100, maxDiffRate: 0.01 } }, { native: 5, pause: '10m' }, { native: 25, pause: '30m' }, { native: 100 }],
          analysis: { interval: '60s', minRequests: 50, maxErrorRate: 0.01, maxLatencyRatio: 1.5, maxDiffRate: 0.001, failureLimit: 2, ...analysis },
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
  nativeMs?: number;
  translateMs?: number;
  compared?: number;
  differed?: number;
}

function tally(t: Traffic): IntervalTally {
  const out = emptyTally();
  for (let i = 0; i < (t.native ?? 0); i += 1) countServed(out, 'native', i < (t.nativeErrors ?? 0), t.nativeMs ?? 10);
  for (let i = 0; i < (t.translate ?? 0); i += 1) countServed(out, 'translate', false, t.translateMs ?? 10);
  out.compared = t.compared ?? 0;
  out.differed = t.differed ?? 0;
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
    interval(traffic: Traffic, minutes = 1) {
      now += minutes * MIN;
      const index = Math.floor((now - p.stepStartedAt) / MIN) - 1;
      const step = s.steps[p.step];
      if (!step) throw new Error('no step');
      const result = judgeInterval(s.analysis, step, { step: p.step, index, endedAt: now }, tally(traffic));
      const t = afterInterval(s, p, result, now);
      p = t.progress;
      events.push(...t.events);
      return result;
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

const healthy: Traffic = { native: 60, translate: 600, compared: 60 };
const path = (events: ProgressEvent[]) => events.map((e) => `${e.to.state}@${e.to.step + 1}`);

describe('progressive rollout: the state machine over a test clock', () => {
  it('promotes through every step: the shadow stage until its compared reads, each pause held, then the last step', () => {
    const s = schedule();
    const r = drive(s);
    expect(r.p).toMatchObject({ state: 'shadowing', step: 0, stage: 1 });
    expect(shareOf(s, r.p)).toEqual({ native: 0, shadow: 100 });

    // the shadow stage waits for 100 compared reads, even when each interval passes
    expect(r.interval({ compared: 60 }).verdict).toBe('pass');
    expect(r.p).toMatchObject({ state: 'shadowing', step: 0, compared: 60 });
    r.interval({ compared: 60 });
    expect(r.p).toMatchObject({ state: 'progressing', step: 1, compared: 0, evaluated: -1 });
    expect(shareOf(s, r.p)).toEqual({ native: 5, shadow: 0 });

    // 5 % is held 10 minutes: nine passing intervals wait, the tenth moves on
    for (let i = 0; i < 9; i += 1) r.interval(healthy);
    expect(r.p.step).toBe(1);
    r.interval(healthy);
    expect(r.p).toMatchObject({ state: 'progressing', step: 2 });
    for (let i = 0; i < 30; i += 1) r.interval(healthy);
    expect(r.p).toMatchObject({ state: 'promoted', step: 3 });
    expect(shareOf(s, r.p)).toEqual({ native: 100, shadow: 0 });
    expect(path(r.events)).toEqual(['progressing@2', 'progressing@3', 'promoted@4']);
    expect(r.events.every((e) => e.by === 'analysis' && e.figures?.verdict === 'pass')).toBe(true);

    // a promoted route keeps its intervals (the last 30), and nothing moves it any more
    r.interval({ native: 60, nativeErrors: 60 });
    expect(r.p.state).toBe('promoted');
    expect(r.p.history).toHaveLength(30);
  });

  it('an interval with fewer than minRequests pauses the step (never a failure) until a conclusive one', () => {
    const s = schedule();
    const r = drive(s);
    r.command('promote');
    expect(r.p).toMatchObject({ state: 'progressing', step: 1 });
    const quiet = r.interval({ native: 10, translate: 200 });
    expect(quiet).toMatchObject({ verdict: 'inconclusive', decidedBy: 'minRequests' });
    expect(r.p).toMatchObject({ state: 'paused', pausedBy: 'inconclusive', failures: 0 });
    expect(shareOf(s, r.p).native).toBe(5);
    // still quiet: no new event; a failure after that counts, and resumes the analysis
    r.interval({ native: 0 });
    r.interval({ native: 60, nativeErrors: 6, translate: 600 });
    expect(r.p).toMatchObject({ state: 'progressing', failures: 1, pausedBy: null });
    r.interval(healthy);
    expect(r.p).toMatchObject({ state: 'progressing', failures: 0 });
    expect(path(r.events)).toEqual(['progressing@2', 'paused@2', 'progressing@2']);
  });

  it('failureLimit failed intervals in a row abort with the reason and the figures; an abort never resumes by itself', () => {
    const s = schedule();
    const r = drive(s);
    r.command('promote');
    r.interval({ native: 60, nativeErrors: 12, translate: 600 });
    expect(r.p).toMatchObject({ state: 'progressing', failures: 1 });
    // a passing interval in between: the count starts again
    r.interval(healthy);
    r.interval({ native: 60, nativeErrors: 12, translate: 600 });
    expect(r.p).toMatchObject({ state: 'progressing', failures: 1 });
    const second = r.interval({ native: 60, nativeErrors: 12, translate: 600 });
    expect(second).toMatchObject({ verdict: 'fail', decidedBy: 'maxErrorRate', errorRate: { native: 0.2 } });
    expect(r.p.state).toBe('aborted');
    expect(r.p.lastAbort?.reason).toBe('maxErrorRate: 0.2 above 0.01 in 2 intervals in a row');
    expect(r.p.lastAbort?.figures).toMatchObject({ requests: { native: 60, translate: 600 }, verdict: 'fail' });
    expect(shareOf(s, r.p)).toEqual({ native: 0, shadow: 0 });
    for (let i = 0; i < 20; i += 1) r.interval(healthy);
    expect(r.p.state).toBe('aborted');
  });

  it('a dryRun check is evaluated and shown, never acts; the same check not in dryRun fails the interval', () => {
    const slow: Traffic = { native: 60, nativeMs: 40, translate: 600, translateMs: 10, compared: 60 };
    const dry = drive(schedule({ dryRun: ['maxLatencyRatio'] }));
    dry.command('promote');
    const shown = dry.interval(slow);
    expect(shown.verdict).toBe('pass');
    expect(shown.checks.find((c) => c.check === 'maxLatencyRatio')).toMatchObject({ passed: false, dryRun: true, applies: true });
    expect((shown.checks.find((c) => c.check === 'maxLatencyRatio')?.value ?? 0) > 3).toBe(true);
    dry.interval(slow);
    expect(dry.p.state).toBe('progressing');

    const live = drive(schedule());
    live.command('promote');
    expect(live.interval(slow)).toMatchObject({ verdict: 'fail', decidedBy: 'maxLatencyRatio' });
    live.interval(slow);
    expect(live.p.state).toBe('aborted');
    expect(live.p.lastAbort?.reason).toMatch(/^maxLatencyRatio: \d+(\.\d+)? above 1\.5 in 2 intervals in a row$/);
  });

  it('the shadow stage: inconclusive under minRequests compared reads, aborted when its compared reads differ too often', () => {
    const s = schedule({ maxDiffRate: 0.5 });
    const r = drive(s);
    expect(r.interval({ compared: 20 }).verdict).toBe('inconclusive');
    expect(r.p.state).toBe('paused');
    // every interval passes the analysis's own diff check (0.5), but the step's gate asks for 1 %
    r.interval({ compared: 60, differed: 3 });
    expect(r.p).toMatchObject({ state: 'shadowing', compared: 80, differed: 3 });
    r.interval({ compared: 60, differed: 0 });
    expect(r.p.state).toBe('aborted');
    expect(r.p.lastAbort?.reason).toBe("the step's differences: 3 of 140 compared reads (0.0214) above 0.01");
  });

  it('checks with nothing to measure do not apply: no compared read, no translated request to compare latency with', () => {
    const s = schedule();
    const result = judgeInterval(s.analysis, { native: 100, pause: 0 }, { step: 3, index: 0, endedAt: 0 }, tally({ native: 60 }));
    expect(result.verdict).toBe('pass');
    expect(result.checks.map((c) => [c.check, c.applies])).toEqual([
      ['maxErrorRate', true],
      ['maxLatencyRatio', false],
      ['maxDiffRate', false],
    ]);
  });

  it('manual transitions: pause holds the step (and failures still abort), resume, promote skips, abort, retry starts over', () => {
    const s = schedule();
    const r = drive(s);
    expect(r.command('pause', 'looking at the report')).toMatchObject({ ok: true });
    expect(r.p).toMatchObject({ state: 'paused', pausedBy: 'operator', reason: 'pause by admin: looking at the report' });
    // passing intervals do not move an operator's pause on
    for (let i = 0; i < 3; i += 1) r.interval({ compared: 60 });
    expect(r.p).toMatchObject({ state: 'paused', step: 0 });
    expect(r.command('resume').ok).toBe(true);
    expect(r.p.state).toBe('shadowing');
    expect(r.command('resume')).toEqual({ ok: false, reason: 'the route is shadowing, not paused' });
    r.command('promote');
    r.command('promote');
    expect(r.p).toMatchObject({ state: 'progressing', step: 2 });
    r.command('pause');
    r.interval({ native: 60, nativeErrors: 60, translate: 60 });
    r.interval({ native: 60, nativeErrors: 60, translate: 60 });
    expect(r.p.state).toBe('aborted');
    expect(r.command('promote')).toMatchObject({ ok: false });
    expect(r.command('abort')).toEqual({ ok: false, reason: 'the route is aborted already' });
    expect(r.command('retry', 'fixed the backend').ok).toBe(true);
    expect(r.p).toMatchObject({ state: 'shadowing', step: 0, failures: 0 });
    expect(r.p.lastAbort?.reason).toMatch(/^maxErrorRate: 1 above 0.01/);
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
    expect(tallyOf(tallyCounts(t))).toEqual(t);
    // counters from elsewhere are untrusted: negative, unknown and impossible figures are left out
    expect(tallyOf({ 'r.n': -5, 'e.n': 3, c: 1, d: 9, 'l.n.999': 4, junk: 1 })).toMatchObject({ requests: { native: 0 }, errors: { native: 0 }, differed: 1 });
  });
});
