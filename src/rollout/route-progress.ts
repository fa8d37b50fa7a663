import { type AnalysisCheck, type AnalysisConfig, type Duration, durationMs, type RolloutStep } from './rollout-config.js';
import { addTally, type IntervalTally, quantileMs, tallyCounts, tallyOf } from './interval-tally.js';
import { sidesText } from '../verdict/three-verdicts.js';
import { type CheckResult, judgeStep } from './step-analysis.js';

/** A progressive route as the state machine reads it: its steps, their analysis, and the route's own shadow share. */
export interface Schedule {
  steps: readonly RolloutStep[];
  analysis: AnalysisConfig;
  shadow: number;
  /** whether the route has a noise arm (the diff check compares with it, else with none) */
  noise: boolean;
  /** the share of the route's writes verified (the write diff check needs some) */
  verifyWrites: number;
  /** the analysis interval in milliseconds, read from the file once */
  intervalMs: number;
}

/** A progressive route's schedule as the rollout file gives it. */
export function scheduleOf(steps: readonly RolloutStep[], analysis: AnalysisConfig, shadow: number, noise = 0, verifyWrites = 0): Schedule {
  return { steps, analysis, shadow, noise: noise > 0, verifyWrites, intervalMs: durationMs(analysis.interval) };
}

export type ProgressState = 'shadowing' | 'progressing' | 'paused' | 'promoted' | 'aborted';
export type ProgressAction = 'promote' | 'pause' | 'resume' | 'abort' | 'retry';
export const PROGRESS_ACTIONS: readonly ProgressAction[] = ['promote', 'pause', 'resume', 'abort', 'retry'];

/** An interval's own figures (the charts), and the verdict of its step so far with each check's numbers. */
export interface IntervalResult {
  /** the step it was judged at, its index in that step, and when it ended */
  step: number;
  index: number;
  endedAt: number;
  requests: { translate: number; native: number };
  errorRate: { translate: number | null; native: number | null };
  p99Ms: { translate: number | null; native: number | null };
  compared: number;
  differed: number;
  diffRate: number | null;
  /** the look of the rollout its step's checks were judged at (the α it spent) */
  look: number;
  verdict: 'pass' | 'fail' | 'inconclusive';
  /** the check that decided a failure or kept the step waiting (`minSamples`: no check applies and the step saw too little); null when it passed */
  decidedBy: AnalysisCheck | 'minSamples' | null;
  checks: CheckResult[];
}

/** The state of one progressive route: the same for the whole fleet, part of the control document. */
export interface RouteProgress {
  state: ProgressState;
  step: number;
  /** a new number for each step entered: counts of an earlier step never mix into this one's */
  stage: number;
  stepStartedAt: number;
  /** the last interval of this step that was judged (-1: none) */
  evaluated: number;
  /** failed intervals in a row */
  failures: number;
  pausedBy: 'operator' | 'inconclusive' | null;
  /** everything this step saw so far, as named counts (what its checks are judged on) */
  observed: Record<string, number>;
  /** looks of this rollout that tested a check (since it started or was retried): the α spent */
  looks: number;
  /** reads compared in this step, and how many differed (the `until` gate) */
  compared: number;
  differed: number;
  /** why the last change happened, and when */
  reason: string;
  changedAt: number;
  lastAbort: { reason: string; at: number; figures: IntervalResult | null } | null;
  history: IntervalResult[];
}

/**
 * A route's state by its one name, wherever it is shown (status, log, audit, console, webhook,
 * metrics): a step the analysis holds while it waits for a verdict is `waiting`; `paused` is an
 * operator's pause only.
 */
export type ShownState = ProgressState | 'waiting';

export function shownState(p: Pick<RouteProgress, 'state' | 'pausedBy'> | undefined): ShownState {
  if (!p) return 'shadowing';
  return p.state === 'paused' && p.pausedBy === 'inconclusive' ? 'waiting' : p.state;
}

/** A state change or a step, as logged and sent to the webhook. */
export interface ProgressEvent {
  from: { state: ShownState; step: number };
  to: { state: ShownState; step: number };
  reason: string;
  by: string;
  at: number;
  figures: IntervalResult | null;
}

export interface Transition {
  progress: RouteProgress;
  events: ProgressEvent[];
}

/** how many intervals a route keeps */
export const HISTORY = 30;

const rateOf = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** The state a route is in at a step when nothing holds it. */
function stateAt(schedule: Schedule, step: number): ProgressState {
  if (step >= schedule.steps.length - 1) return 'promoted';
  return (schedule.steps[step] as RolloutStep).native > 0 ? 'progressing' : 'shadowing';
}

/** A route entering a step: counts begin afresh. */
function enter(schedule: Schedule, p: RouteProgress, step: number, now: number, reason: string): RouteProgress {
  return {
    ...p,
    state: stateAt(schedule, step),
    step,
    stage: p.stage + 1,
    stepStartedAt: now,
    evaluated: -1,
    failures: 0,
    pausedBy: null,
    observed: {},
    compared: 0,
    differed: 0,
    reason,
    changedAt: now,
  };
}

/** A route that has not run yet: at its first step. */
export function startProgress(schedule: Schedule, now: number): RouteProgress {
  // `enter` sets every other field
  const blank = { stage: 0, looks: 0, lastAbort: null, history: [] } as unknown as RouteProgress;
  return enter(schedule, blank, 0, now, 'started at the first step');
}

/**
 * A route's state under a schedule that may have changed since it was made (steps removed or
 * added, a live edit of the file): a step past the new last one becomes the last, and a state
 * that follows from the step (shadowing, progressing, promoted) is made again from it; paused and
 * aborted stay. Whatever it is given, the result is a state of this schedule.
 */
export function fitToSchedule(schedule: Schedule, p: RouteProgress, now: number): RouteProgress {
  const last = schedule.steps.length - 1;
  const step = Number.isInteger(p.step) ? Math.min(Math.max(p.step, 0), last) : 0;
  const held = p.state === 'paused' || p.state === 'aborted';
  const state = held ? p.state : stateAt(schedule, step);
  if (step === p.step && state === p.state) return p;
  const reason =
    step === p.step
      ? `the schedule changed: step ${step + 1} is now ${state}`
      : `the schedule changed: step ${p.step + 1} is gone, the route is at the last step`;
  // a step it was moved to starts afresh; only the state it is in changed otherwise
  return step === p.step
    ? { ...p, state, reason, changedAt: now }
    : { ...enter(schedule, p, step, now, reason), ...(held ? { state: p.state, pausedBy: p.pausedBy } : {}) };
}

/** The shares a route serves with in its state: an aborted route is translated only. */
export function shareOf(schedule: Schedule, p: RouteProgress | undefined): { native: number; shadow: number } {
  const step = schedule.steps[Math.min(Math.max(p?.step ?? 0, 0), schedule.steps.length - 1)] as RolloutStep;
  const shadow = step.shadow ?? schedule.shadow;
  if (p?.state === 'aborted') return { native: 0, shadow: schedule.shadow };
  return { native: step.native, shadow };
}

/** How long a step holds at least, in milliseconds. */
export function pauseMs(step: RolloutStep): number {
  return durationMs(step.pause as Duration);
}

/**
 * Judges an interval of a route: its own figures for the charts, and its step's checks on
 * everything the step saw so far (the interval included) at the rollout's next look.
 */
export function judgeInterval(schedule: Schedule, p: RouteProgress, at: { index: number; endedAt: number }, tally: IntervalTally): IntervalResult {
  const step = Math.min(Math.max(p.step, 0), schedule.steps.length - 1);
  const totals = tallyOf(p.observed ?? {});
  addTally(totals, tally);
  const looks = Number.isInteger(p.looks) ? p.looks : 0;
  // an interval that saw nothing new is the same data at the same look, not another look
  const fresh = tally.requests.native + tally.requests.translate + tally.compared + tally.noise + tally.verified > 0;
  const look = fresh || looks === 0 ? looks + 1 : looks;
  const judged = judgeStep(schedule.analysis, schedule.steps[step] as RolloutStep, schedule, totals, look);
  return {
    step,
    index: at.index,
    endedAt: at.endedAt,
    requests: { ...tally.requests },
    errorRate: { translate: rateOf(tally.errors.translate, tally.requests.translate), native: rateOf(tally.errors.native, tally.requests.native) },
    p99Ms: { translate: quantileMs(tally.latency.translate, 0.99), native: quantileMs(tally.latency.native, 0.99) },
    compared: tally.compared,
    differed: tally.differed,
    diffRate: rateOf(tally.differed, tally.compared),
    look: judged.tested ? look : looks,
    verdict: judged.verdict,
    decidedBy: judged.decidedBy,
    checks: judged.checks,
  };
}

const fmt = (n: number | null) => (n === null ? 'n/a' : String(Math.round(n * 10_000) / 10_000));

/** Why a step failed or waits, in words, with the deciding check's numbers. */
function verdictText(r: IntervalResult, analysis: AnalysisConfig): string {
  if (r.decidedBy === 'minSamples')
    return `waiting for traffic: fewer than ${analysis.minSamples} ${r.requests.native > 0 ? 'native requests' : 'compared reads'} in the step`;
  const c = r.checks.find((x) => x.check === r.decidedBy) as CheckResult;
  const sides = sidesText(c);
  return `${c.check}: ${r.verdict === 'inconclusive' ? 'waiting: ' : ''}${c.why}${sides === '' ? '' : ` (${sides})`}`;
}

/** An older interval of the history: its figures and each check's verdict and estimate, not their whole numbers. */
function compacted(r: IntervalResult): IntervalResult {
  return { ...r, checks: (r.checks ?? []).map((c) => ({ ...c, sides: [], why: '' })) };
}

/** Each check's latest verdict with its numbers (none from a state the earlier analysis stored, whose checks had no numbers). */
export function latestChecks(p: RouteProgress | undefined): CheckResult[] {
  const checks = p?.history?.at(-1)?.checks ?? [];
  return checks.filter((c) => Array.isArray(c.sides) && typeof c.unit === 'string' && typeof c.why === 'string');
}

function changed(before: RouteProgress, after: RouteProgress, reason: string, by: string, now: number, figures: IntervalResult | null): ProgressEvent[] {
  const [from, to] = [shownState(before), shownState(after)];
  if (from === to && before.step === after.step) return [];
  return [{ from: { state: from, step: before.step }, to: { state: to, step: after.step }, reason, by, at: now, figures }];
}

function abort(p: RouteProgress, reason: string, now: number, figures: IntervalResult | null): RouteProgress {
  return { ...p, state: 'aborted', pausedBy: null, reason, changedAt: now, lastAbort: { reason, at: now, figures } };
}

/**
 * A route after one judged interval: kept in its history; a promoted or aborted route only keeps
 * it. `failureLimit` failures in a row abort (a pause by an operator holds the step, not the
 * analysis: failures still abort); an inconclusive interval pauses (never a failure) and the next
 * conclusive one resumes; a passing one, once the step's pause is over and its `until` met, moves
 * to the next step. A step's `until` met with too many differences aborts.
 */
export function afterInterval(schedule: Schedule, p: RouteProgress, at: { index: number; endedAt: number }, tally: IntervalTally, now: number): Transition {
  const result = judgeInterval(schedule, p, at, tally);
  const observed = tallyOf(p.observed ?? {});
  addTally(observed, tally);
  const base: RouteProgress = {
    ...p,
    evaluated: Math.max(p.evaluated, result.index),
    observed: tallyCounts(observed),
    looks: result.look,
    history: [...(p.history ?? []).map(compacted), result].slice(-HISTORY),
  };
  if (p.state === 'aborted' || p.state === 'promoted' || result.step !== p.step) return { progress: base, events: [] };
  const { analysis } = schedule;
  const step = schedule.steps[Math.min(p.step, schedule.steps.length - 1)] as RolloutStep;
  const next = { ...base, compared: p.compared + result.compared, differed: p.differed + result.differed };
  const until = step.until;
  if (until && next.compared >= until.compared && next.differed / next.compared > until.maxDiffRate) {
    const reason = `the step's differences: ${next.differed} of ${next.compared} compared reads (${fmt(next.differed / next.compared)}) above ${until.maxDiffRate}`;
    const aborted = abort(next, reason, now, result);
    return { progress: aborted, events: changed(p, aborted, reason, 'analysis', now, result) };
  }
  if (result.verdict === 'fail') {
    const failures = p.failures + 1;
    const why = verdictText(result, analysis);
    if (failures >= analysis.failureLimit) {
      const reason = `${why} in ${failures} interval${failures === 1 ? '' : 's'} in a row`;
      const aborted = abort({ ...next, failures }, reason, now, result);
      return { progress: aborted, events: changed(p, aborted, reason, 'analysis', now, result) };
    }
    const resumed = p.pausedBy === 'inconclusive' ? { ...next, pausedBy: null, state: stateAt(schedule, p.step) } : next;
    return { progress: { ...resumed, failures, reason: why, changedAt: now }, events: changed(p, resumed, why, 'analysis', now, result) };
  }
  if (result.verdict === 'inconclusive') {
    const why = verdictText(result, analysis);
    // still waiting: the reason shows the latest numbers; an operator's pause keeps its own
    if (p.pausedBy !== null) return { progress: p.pausedBy === 'inconclusive' ? { ...next, reason: why } : next, events: [] };
    const paused: RouteProgress = { ...next, state: 'paused', pausedBy: 'inconclusive', reason: why, changedAt: now };
    return { progress: paused, events: changed(p, paused, why, 'analysis', now, result) };
  }
  let passed: RouteProgress = { ...next, failures: 0 };
  if (p.pausedBy === 'inconclusive')
    passed = { ...passed, pausedBy: null, state: stateAt(schedule, p.step), reason: 'the analysis passed again', changedAt: now };
  const held = now - p.stepStartedAt < pauseMs(step);
  const waiting = until !== undefined && passed.compared < until.compared;
  if (passed.pausedBy === 'operator' || held || waiting) return { progress: passed, events: changed(p, passed, passed.reason, 'analysis', now, result) };
  const reason = `the analysis passed at step ${p.step + 1}`;
  const moved = enter(schedule, passed, p.step + 1, now, reason);
  return { progress: moved, events: changed(p, moved, reason, 'analysis', now, result) };
}

export type Command = { ok: true; transition: Transition } | { ok: false; reason: string };

/**
 * An operator's transition: promote (to the next step), pause (hold the step), resume, abort
 * (back to translation), retry (an aborted route from its first step). `by` and `reason` go with
 * the change.
 */
export function commandProgress(schedule: Schedule, p: RouteProgress, action: ProgressAction, now: number, by: string, reason: string): Command {
  const why = reason === '' ? `${action} by ${by}` : `${action} by ${by}: ${reason}`;
  const done = (after: RouteProgress): Command => ({ ok: true, transition: { progress: after, events: changed(p, after, why, by, now, null) } });
  const ended = p.state === 'aborted' || p.state === 'promoted';
  switch (action) {
    case 'promote':
      if (ended) return { ok: false, reason: `the route is ${p.state}: nothing to promote (retry restarts an aborted route)` };
      if (p.step >= schedule.steps.length - 1) return { ok: false, reason: 'the route is at its last step' };
      return done(enter(schedule, p, p.step + 1, now, why));
    case 'pause':
      if (ended) return { ok: false, reason: `the route is ${p.state}: nothing to pause` };
      return done({ ...p, state: 'paused', pausedBy: 'operator', reason: why, changedAt: now });
    case 'resume':
      if (p.state !== 'paused') return { ok: false, reason: `the route is ${p.state}, not paused` };
      return done({ ...p, state: stateAt(schedule, p.step), pausedBy: null, reason: why, changedAt: now });
    case 'abort':
      if (p.state === 'aborted') return { ok: false, reason: 'the route is aborted already' };
      return done(abort(p, why, now, p.history.at(-1) ?? null));
    case 'retry':
      if (p.state !== 'aborted') return { ok: false, reason: `the route is ${p.state}: only an aborted route is retried` };
      // a retry is a new rollout: its looks spend α afresh
      return done({ ...enter(schedule, p, 0, now, why), looks: 0 });
  }
}

/** An interval's figures as shown and sent: steps counted from 1, times as ISO text. */
export function intervalView(r: IntervalResult): Record<string, unknown> {
  return { ...r, step: r.step + 1, endedAt: new Date(r.endedAt).toISOString() };
}
