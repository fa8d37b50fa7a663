import {
  type Actor,
  type AuditRecord,
  type ControlDoc,
  type PendingApproval,
  type Rollback,
  routeKey,
  bucketKeysFor,
  routeOfKey,
  sameOperations,
} from './control-document.js';
import { type AnalysisConfig, DEFAULT_ANALYSIS, durationMs, type RolloutConfig, type RolloutRoute } from './rollout-config.js';
import { tallyOf } from './interval-tally.js';
import {
  afterInterval,
  commandProgress,
  fitToSchedule,
  intervalView,
  type ProgressAction,
  type ProgressEvent,
  type RouteProgress,
  type Schedule,
  scheduleOf,
  shareOf,
  shownState,
  startProgress,
} from './route-progress.js';

/** Everything that changes control state. Requests never do: they only read the snapshot. */
export type ControlEvent =
  /** a rollout file a replica loaded by an explicit act (start, reload, SIGHUP, a change seen), checked there */
  | { type: 'publish-config'; text: string; digest: string; config: RolloutConfig; actor: Actor }
  | { type: 'kill-switch'; on: boolean; actor: Actor; reason: string }
  /** the guard's window of a route passed its limit */
  | { type: 'guard-trip'; key: string; until: number; why: string; figures: Record<string, unknown> }
  /** a progressive route that has no state yet starts at its first step */
  | { type: 'progress-start'; key: string }
  /** an interval of a route's step, judged on the fleet's counts */
  | { type: 'interval'; key: string; stage: number; index: number; endedAt: number; counts: Record<string, number> }
  /** an operator's command on a progressive route (its operations in any order), decided on the step it names (`fromStep`, as shown: 1, 2, …) when it names one */
  | {
      type: 'route-command';
      resource: string;
      operations: readonly string[];
      action: ProgressAction;
      actor: Actor;
      reason: string;
      fromStep?: number | undefined;
    }
  | { type: 'diff-reset'; actor: Actor; reason: string };

export interface ReduceContext {
  now: number;
  /** the configuration of the document being changed, parsed (the one in force) */
  config: RolloutConfig;
  /** a new audit record's id */
  id(): string;
}

export type Reduced =
  | { kind: 'changed'; doc: ControlDoc; audit: AuditRecord[]; pending?: PendingApproval }
  /** nothing to change (already so); `pending`: an approval this operator asked for still waits */
  | { kind: 'unchanged'; pending?: PendingApproval }
  | { kind: 'refused'; error: 'unknown-route' | 'refused' | 'stale'; reason: string };

/** A progressive route's schedule, from its entry in the file. */
export function scheduleOfRoute(route: RolloutRoute): Schedule | undefined {
  return route.steps
    ? scheduleOf(route.steps, route.analysis ?? (DEFAULT_ANALYSIS as AnalysisConfig), route.shadow, route.noise, route.verifyWrites)
    : undefined;
}

function progressView(p: RouteProgress | undefined, schedule: Schedule): Record<string, unknown> {
  return { state: shownState(p), step: (p?.step ?? 0) + 1, native: shareOf(schedule, p).native };
}

/** What an automatic transition of a progressive route was, as the audit names it. */
function actionOf(e: ProgressEvent): string {
  if (e.to.state === 'aborted') return 'route.abort';
  if (e.to.step !== e.from.step) return 'route.promote';
  // the analysis holds a step only while it waits for a verdict (an operator's pause is a command)
  if (e.to.state === 'waiting') return 'route.wait';
  return 'route.resume';
}

const without = <T>(map: Readonly<Record<string, T>>, key: string): Record<string, T> => {
  const { [key]: _, ...rest } = map;
  return rest;
};

type Audit = (actor: Actor, action: string, key: string | null, fields: Partial<AuditRecord>) => AuditRecord;

/** The audit records of one change: at one moment, numbered when written (the writer knows the trail's length it writes over). */
function auditOf(ctx: ReduceContext): Audit {
  const at = new Date(ctx.now).toISOString();
  return (actor, action, key, fields) => ({
    id: ctx.id(),
    seq: 0,
    at,
    actor,
    action,
    route: key === null ? null : routeOfKey(key),
    before: null,
    after: null,
    reason: '',
    figures: null,
    ...fields,
  });
}

/** A rollout file published: the routes' states kept where the route is, each progressive one refitted to its new schedule. */
function publishConfig(doc: ControlDoc, event: Extract<ControlEvent, { type: 'publish-config' }>, ctx: ReduceContext, audit: Audit): Reduced {
  if (doc.config?.digest === event.digest) return { kind: 'unchanged' };
  const keys = new Set(event.config.routes.map((r) => routeKey(r.resource, r.operations)));
  const keep = <T>(map: Readonly<Record<string, T>>) => Object.fromEntries(Object.entries(map).filter(([k]) => keys.has(k)));
  // live edits: each progressive route's state is made again under its new schedule
  const progress: Record<string, RouteProgress> = {};
  const refitted: Record<string, unknown>[] = [];
  for (const route of event.config.routes) {
    const key = routeKey(route.resource, route.operations);
    const schedule = scheduleOfRoute(route);
    const p = doc.progress[key];
    if (!schedule || !p) continue;
    const fitted = fitToSchedule(schedule, p, ctx.now);
    progress[key] = fitted;
    if (fitted !== p) refitted.push({ route: routeOfKey(key), from: { state: p.state, step: p.step + 1 }, to: { state: fitted.state, step: fitted.step + 1 } });
  }
  const approvals = Object.fromEntries(Object.entries(keep(doc.approvals)).filter(([k, a]) => progress[k]?.stage === a.stage));
  // the file's own kill switch changed: an operator's earlier kill or resume gives way to it
  const kill = doc.kill && event.config.killSwitch !== ctx.config.killSwitch ? null : doc.kill;
  const next: ControlDoc = {
    config: { text: event.text, digest: event.digest, at: ctx.now, actor: event.actor },
    kill,
    rollbacks: keep(doc.rollbacks),
    progress,
    approvals,
    diffReset: doc.diffReset,
    bucketKeys: bucketKeysFor(doc, ctx.config.routes, keys),
  };
  const record = audit(event.actor, 'config.published', null, {
    before: doc.config ? { digest: doc.config.digest, killSwitch: ctx.config.killSwitch } : null,
    after: { digest: event.digest, killSwitch: kill ? kill.on : event.config.killSwitch },
    reason: doc.config === null ? 'the first configuration' : event.actor === 'file' ? 'a replica loaded a changed rollout file' : `reload by ${event.actor}`,
    figures: { routes: event.config.routes.length, ...(refitted.length > 0 ? { refitted } : {}) },
  });
  return { kind: 'changed', doc: next, audit: [record] };
}

/** An operator's command on a progressive route: refused, held for a second operator's approval, or made. */
function routeCommand(doc: ControlDoc, event: Extract<ControlEvent, { type: 'route-command' }>, ctx: ReduceContext, audit: Audit): Reduced {
  const routes = ctx.config.routes;
  const route = routes.find((r) => r.resource === event.resource && sameOperations(r.operations, event.operations));
  if (!route) return { kind: 'refused', error: 'unknown-route', reason: `no route ${event.resource} [${event.operations.join(', ')}] in the rollout file` };
  const key = routeKey(route.resource, route.operations);
  const schedule = scheduleOfRoute(route);
  if (!schedule) return { kind: 'refused', error: 'refused', reason: `the route ${key} has a fixed native share, no steps` };
  const p = fitToSchedule(schedule, doc.progress[key] ?? startProgress(schedule, ctx.now), ctx.now);
  // the step the operator saw is gone: no second move on a state nobody decided on
  if (event.fromStep !== undefined && event.fromStep !== p.step + 1)
    return { kind: 'refused', error: 'stale', reason: `the route ${key} is at step ${p.step + 1} (${p.state}), not at step ${event.fromStep}` };
  const made = commandProgress(schedule, p, event.action, ctx.now, event.actor, event.reason);
  if (!made.ok) return { kind: 'refused', error: 'refused', reason: made.reason };
  const after = made.transition.progress;
  const fromNative = shareOf(schedule, p).native;
  const toNative = shareOf(schedule, after).native;
  const gate = ctx.config.approvals;
  let approvedFrom: PendingApproval | undefined;
  if ((event.action === 'promote' || event.action === 'retry') && gate && toNative > gate.nativeAbove && toNative > fromNative) {
    const pending = doc.approvals[key];
    const live = pending && pending.action === event.action && pending.stage === p.stage && ctx.now - pending.at < durationMs(gate.expireAfter);
    if (live && pending.requestedBy === event.actor) return { kind: 'unchanged', pending };
    if (!live) {
      const asked: PendingApproval = {
        action: event.action,
        stage: p.stage,
        step: p.step,
        toNative,
        requestedBy: event.actor,
        at: ctx.now,
        reason: event.reason,
      };
      const record = audit(event.actor, `route.${event.action}-requested`, key, {
        before: progressView(p, schedule),
        after: { ...progressView(after, schedule), approval: 'pending' },
        reason: `${event.reason === '' ? event.action : event.reason}: native ${toNative} % is above ${gate.nativeAbove} %, a second operator must ${event.action} too`,
      });
      return { kind: 'changed', doc: { ...doc, approvals: { ...doc.approvals, [key]: asked } }, audit: [record], pending: asked };
    }
    approvedFrom = pending;
  }
  const records = [
    audit(event.actor, `route.${event.action}`, key, {
      before: progressView(p, schedule),
      after: progressView(after, schedule),
      reason: approvedFrom
        ? `${made.transition.events[0]?.reason ?? event.action}; asked by ${approvedFrom.requestedBy}${approvedFrom.reason === '' ? '' : ` (${approvedFrom.reason})`}, approved by ${event.actor}`
        : (made.transition.events[0]?.reason ?? `${event.action} by ${event.actor}`),
      figures: approvedFrom ? { requestedBy: approvedFrom.requestedBy, approvedBy: event.actor } : null,
    }),
  ];
  return { kind: 'changed', doc: settle(doc, key, after), audit: records };
}

/**
 * The one place control state changes: the next document from the current one and an event, with
 * the audit records of the change. Pure (the clock and the record ids come in `ctx`), so every
 * replica makes the same change from the same document, and a write lost to another writer is
 * simply made again on the newer document.
 */
export function reduceControl(doc: ControlDoc, event: ControlEvent, ctx: ReduceContext): Reduced {
  const audit = auditOf(ctx);
  const routes = ctx.config.routes;
  const find = (key: string) => routes.find((r) => routeKey(r.resource, r.operations) === key);

  switch (event.type) {
    case 'publish-config':
      return publishConfig(doc, event, ctx, audit);

    case 'kill-switch': {
      const before = doc.kill ? doc.kill.on : ctx.config.killSwitch;
      if (before === event.on) return { kind: 'unchanged' };
      const next: ControlDoc = { ...doc, kill: { on: event.on, actor: event.actor, at: ctx.now, reason: event.reason } };
      const record = audit(event.actor, event.on ? 'kill-switch.on' : 'kill-switch.off', null, {
        before: { killSwitch: before },
        after: { killSwitch: event.on },
        reason: event.reason,
      });
      return { kind: 'changed', doc: next, audit: [record] };
    }

    case 'guard-trip': {
      const route = find(event.key);
      const current = doc.rollbacks[event.key];
      if (!route || (current && current.until > ctx.now)) return { kind: 'unchanged' };
      const rollback: Rollback = { until: event.until, count: (current?.count ?? 0) + 1, at: ctx.now, why: event.why };
      const record = audit('guard', 'guard.rollback', event.key, {
        before: { rolledBack: false },
        after: { rolledBack: true, until: new Date(event.until).toISOString(), rollbacks: rollback.count },
        reason: event.why,
        figures: event.figures,
      });
      return { kind: 'changed', doc: { ...doc, rollbacks: { ...doc.rollbacks, [event.key]: rollback } }, audit: [record] };
    }

    case 'progress-start': {
      const route = find(event.key);
      const schedule = route && scheduleOfRoute(route);
      if (!schedule || doc.progress[event.key]) return { kind: 'unchanged' };
      const p = startProgress(schedule, ctx.now);
      const record = audit('analysis', 'route.start', event.key, { after: progressView(p, schedule), reason: p.reason });
      return { kind: 'changed', doc: { ...doc, progress: { ...doc.progress, [event.key]: p } }, audit: [record] };
    }

    case 'interval': {
      const route = find(event.key);
      const schedule = route && scheduleOfRoute(route);
      const stored = doc.progress[event.key];
      if (!schedule || !stored) return { kind: 'unchanged' };
      const p = fitToSchedule(schedule, stored, ctx.now);
      // judged once: an interval of another stage, or one judged already, changes nothing
      if (p.stage !== event.stage || event.index <= p.evaluated) return { kind: 'unchanged' };
      const next = afterInterval(schedule, p, { index: event.index, endedAt: event.endedAt }, tallyOf(event.counts), ctx.now);
      const records = next.events.map((e) =>
        audit('analysis', actionOf(e), event.key, {
          before: progressView(p, schedule),
          after: progressView(next.progress, schedule),
          reason: e.reason,
          figures: e.figures ? intervalView(e.figures) : null,
        }),
      );
      return { kind: 'changed', doc: settle(doc, event.key, next.progress), audit: records };
    }

    case 'route-command':
      return routeCommand(doc, event, ctx, audit);

    case 'diff-reset':
      // the report begins again now, on every replica (each clears what it holds once it sees this)
      return {
        kind: 'changed',
        doc: { ...doc, diffReset: { at: ctx.now, actor: event.actor } },
        audit: [audit(event.actor, 'diff.reset', null, { reason: event.reason })],
      };
  }
}

/** A route's new progress; an approval asked for at an earlier stage is void once the route moved. */
function settle(doc: ControlDoc, key: string, p: RouteProgress): ControlDoc {
  const pending = doc.approvals[key];
  return {
    ...doc,
    progress: { ...doc.progress, [key]: p },
    approvals: pending && pending.stage !== p.stage ? without(doc.approvals, key) : doc.approvals,
  };
}
