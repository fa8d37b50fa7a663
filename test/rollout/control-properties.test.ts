// Properties of the control reducer and the decision, over random configurations and random
// sequences of events (fast-check): what must hold whatever operators, the guard, the analysis and
// file edits do, in whatever order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AuditTrail } from '../../src/rollout/audit-trail.js';
import { EMPTY_DOC } from '../../src/rollout/control-document.js';
import { ControlPlane, ControlRefusedError } from '../../src/rollout/control-plane.js';
import { type ControlEvent, reduceControl } from '../../src/rollout/control-reducer.js';
import { decideBackend } from '../../src/rollout/decide-backend.js';
import { emptyTally, tallyCounts } from '../../src/rollout/interval-tally.js';
import { OverrideSecret } from '../../src/rollout/override-secret.js';
import { NO_ROLLOUT, parseRollout, type RolloutConfig } from '../../src/rollout/rollout-config.js';
import { configDigest } from '../../src/rollout/rollout-file-check.js';
import { firstSnapshot, type RolloutSnapshot } from '../../src/rollout/rollout-snapshot.js';
import { afterInterval, PROGRESS_ACTIONS, shareOf } from '../../src/rollout/route-progress.js';
import { MemoryControlStore } from '../../src/stores/memory-control-store.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SECRET = 'the-operators-override-secret';
const RESOURCES = ['groups', 'roles', 'tags'] as const;
const OPS = ['list', 'get'] as const;

/** A rollout file's text: a few routes, each a fixed share or a schedule that ends at 100 %. */
const fileText = fc
  .record({
    killSwitch: fc.boolean(),
    allowOverride: fc.boolean(),
    approvals: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
    // a file names a route once (the same resource and operations twice is refused)
    routes: fc.uniqueArray(
      fc.record({
        resource: fc.constantFrom(...RESOURCES),
        operations: fc.subarray([...OPS], { minLength: 1 }),
        fixed: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
        steps: fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 5 }),
        shadow: fc.integer({ min: 0, max: 100 }),
      }),
      { maxLength: 4, selector: (r) => `${r.resource}|${[...r.operations].sort().join(',')}` },
    ),
  })
  .map((f) =>
    JSON.stringify({
      killSwitch: f.killSwitch,
      allowOverride: f.allowOverride,
      ...(f.approvals === undefined ? {} : { approvals: { nativeAbove: f.approvals } }),
      routes: f.routes.map((r) => ({
        resource: r.resource,
        operations: r.operations,
        shadow: r.shadow,
        ...(r.fixed !== undefined ? { native: r.fixed } : { steps: [...r.steps.map((n) => ({ native: n })), { native: 100 }] }),
      })),
    }),
  );

const parsed = (text: string): RolloutConfig => {
  const p = parseRollout(text);
  if (!p.ok) throw new Error(p.error);
  return p.config;
};

type MakeEvent = (config: RolloutConfig) => ControlEvent;

const keyOf = (config: RolloutConfig, i: number) => {
  const r = config.routes[i % Math.max(1, config.routes.length)];
  return r ? `${r.resource}|${r.operations.join(',')}` : 'none|list';
};

/** Every kind of event, aimed at the routes of whatever configuration is in force when it comes. */
const event = fc.oneof(
  fileText.map(
    (text): MakeEvent =>
      () => ({ type: 'publish-config', text, digest: configDigest(text), config: parsed(text), actor: 'file' }),
  ),
  fc.record({ on: fc.boolean(), who: fc.constantFrom('alice', 'bob') }).map(
    ({ on, who }): MakeEvent =>
      () => ({ type: 'kill-switch', on, actor: who, reason: '' }),
  ),
  fc.nat(7).map(
    (i): MakeEvent =>
      (c) => ({ type: 'guard-trip', key: keyOf(c, i), until: 10_000_000, why: 'test', figures: { requests: 0 } }),
  ),
  fc.nat(7).map(
    (i): MakeEvent =>
      (c) => ({ type: 'progress-start', key: keyOf(c, i) }),
  ),
  fc.record({ i: fc.nat(7), stage: fc.nat(4), index: fc.nat(5), native: fc.nat(100), errors: fc.nat(100), compared: fc.nat(100) }).map(
    ({ i, stage, index, native, errors, compared }): MakeEvent =>
      (c) => {
        const tally = emptyTally();
        tally.requests.native = native;
        tally.errors.native = Math.min(errors, native);
        tally.compared = compared;
        tally.differed = Math.floor(compared / 3);
        return { type: 'interval', key: keyOf(c, i), stage, index, endedAt: 0, counts: tallyCounts(tally) };
      },
  ),
  fc.record({ i: fc.nat(7), action: fc.constantFrom(...PROGRESS_ACTIONS), who: fc.constantFrom('alice', 'bob', 'olga') }).map(
    ({ i, action, who }): MakeEvent =>
      (c) => {
        const r = c.routes[i % Math.max(1, c.routes.length)];
        return { type: 'route-command', resource: r?.resource ?? 'none', operations: r?.operations ?? ['list'], action, actor: who, reason: '' };
      },
  ),
);

/** A replica on the memory store, its clock moved by the test. */
function replica(text: string) {
  let now = 1_000_000;
  const store = new MemoryControlStore();
  const p = parseRollout(text);
  if (!p.ok) throw new Error(p.error);
  const first = { ok: true as const, config: p.config, text, digest: configDigest(text) };
  const control = new ControlPlane(
    { store, trail: new AuditTrail(store), now: () => now, events: { changed: () => {}, reseeded: () => {}, refused: () => {} } },
    'rollout.yaml',
  );
  control.adopt(first);
  return {
    control,
    tick: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

/** A replica on `text` after `events` (each half a second apart; what the reducer refuses is left out). */
async function afterEvents(text: string, events: readonly MakeEvent[]) {
  const r = replica(text);
  await r.control.publishPending();
  for (const make of events) {
    r.tick(500);
    await r.control.change(make(r.control.snapshot.config)).catch(() => undefined);
  }
  return r;
}

const headersOf = fc.record({
  caller: fc.string({ maxLength: 8 }),
  forced: fc.constantFrom(undefined, 'native', 'translate', 'sideways'),
  secret: fc.constantFrom(undefined, SECRET, 'a-guess', ''),
});

function request(
  s: RolloutSnapshot,
  h: { caller: string; forced: string | undefined; secret: string | undefined },
  resource: string,
  op: 'list' | 'get',
  token?: boolean,
) {
  const headers: Record<string, string> = { authorization: `Bearer ${h.caller}` };
  if (h.forced !== undefined) headers['x-v2proxy-backend'] = h.forced;
  if (h.secret !== undefined) headers['x-v2proxy-override-secret'] = h.secret;
  return decideBackend(
    s,
    { resource, operation: op, headers, issuedHere: token === undefined ? undefined : () => token },
    { nativeBackend: true, overrideSecret: new OverrideSecret(SECRET), now: 5_000_000 },
  );
}

/** Every progressive route of a snapshot is in a state its schedule allows, and its analysis can judge it. */
function expectValid(s: RolloutSnapshot, now: number): void {
  for (const route of s.routes) {
    const { schedule } = route;
    // as stored: the reducer fits a state to the schedule when the schedule changes
    const p = s.doc.progress[route.key];
    if (!schedule || !p) continue;
    const last = schedule.steps.length - 1;
    expect(p.step).toBeGreaterThanOrEqual(0);
    expect(p.step).toBeLessThanOrEqual(last);
    if (p.state !== 'paused' && p.state !== 'aborted') {
      expect(p.state === 'promoted').toBe(p.step === last);
      if (p.state !== 'promoted') expect(p.state).toBe((schedule.steps[p.step]?.native ?? 0) > 0 ? 'progressing' : 'shadowing');
    }
    expect(shareOf(schedule, p).native).toBe(p.state === 'aborted' ? 0 : schedule.steps[p.step]?.native);
    // the analysis goes on: an interval of its stage judged without a throw
    const at = { index: p.evaluated + 1, endedAt: now };
    expect(() => afterInterval(schedule, p, at, emptyTally(), now)).not.toThrow();
    expect(() =>
      reduceControl(s.doc, { type: 'interval', key: route.key, stage: p.stage, ...at, counts: {} }, { now, config: s.config, id: () => 'x' }),
    ).not.toThrow();
  }
}

/** A request (its caller's headers, resource, operation and page token) to a replica after random events. */
const aRequestAfterEvents = [
  fileText,
  fc.array(event, { maxLength: 15 }),
  headersOf,
  fc.constantFrom(...RESOURCES),
  fc.constantFrom(...OPS),
  fc.option(fc.boolean(), { nil: undefined }),
] as const;

describe('the control reducer and the decision, over random event sequences', () => {
  it('versions only grow within an epoch, and every applied state is a state the reducer made', async () => {
    await fc.assert(
      fc.asyncProperty(fileText, fc.array(event, { maxLength: 30 }), async (text, events) => {
        const r = replica(text);
        await r.control.publishPending();
        const { epoch } = r.control.snapshot.head;
        let version = r.control.snapshot.head.version;
        for (const make of events) {
          r.tick(1_000);
          try {
            const made = await r.control.change(make(r.control.snapshot.config));
            const head = r.control.snapshot.head;
            expect(head.epoch).toBe(epoch);
            if (made.kind === 'changed') expect(head.version).toBe(version + 1);
            else expect(head.version).toBe(version);
            version = head.version;
          } catch (err) {
            if (!(err instanceof ControlRefusedError)) throw err;
            expect(r.control.snapshot.head.version).toBe(version);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('the kill switch always translates: every request, page tokens and overrides with the secret included', async () => {
    await fc.assert(
      fc.asyncProperty(...aRequestAfterEvents, async (text, events, h, resource, op, token) => {
        const r = await afterEvents(text, events);
        await r.control.change({ type: 'kill-switch', on: true, actor: 'olga', reason: '' });
        const d = request(r.control.snapshot, h, resource, op, token);
        expect([d.backend, d.why]).toEqual(['translate', 'kill-switch']);
      }),
      { numRuns: RUNS },
    );
  });

  it('an override without the secret changes nothing: the same side as no override at all', async () => {
    await fc.assert(
      fc.asyncProperty(...aRequestAfterEvents, async (text, events, h, resource, op, token) => {
        const r = await afterEvents(text, events);
        const s = r.control.snapshot;
        const plain = request(s, { ...h, forced: undefined, secret: undefined }, resource, op, token);
        const withoutSecret = request(s, { ...h, secret: h.secret === SECRET ? 'not-it' : h.secret }, resource, op, token);
        expect(withoutSecret).toEqual(plain);
        // with the secret, only where the file allows it, and never as evidence
        const withSecret = request(s, { ...h, secret: SECRET }, resource, op, token);
        if (withSecret.why === 'override') {
          expect(s.config.allowOverride).toBe(true);
          expect(withSecret.evidence).toBe(false);
          expect(withSecret.backend).toBe(h.forced);
        } else expect(withSecret).toEqual(plain);
      }),
      { numRuns: RUNS },
    );
  });

  it('any schedule edit leaves every progressive route in a valid state of its new schedule, which the analysis can go on judging', async () => {
    const steps = fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 6 });
    const tagsFile = (shares: number[]) =>
      JSON.stringify({ routes: [{ resource: 'tags', operations: ['list'], steps: [...shares.map((native) => ({ native })), { native: 100 }] }] });
    await fc.assert(
      fc.asyncProperty(
        steps,
        fc.nat(7),
        fc.constantFrom('none', 'pause', 'abort'),
        steps,
        fc.array(event, { maxLength: 10 }),
        async (before, promotions, hold, after, noise) => {
          const r = replica(tagsFile(before));
          await r.control.publishPending();
          await r.control.change({ type: 'progress-start', key: 'tags|list' });
          const command = (action: 'promote' | 'pause' | 'abort') =>
            r.control.change({ type: 'route-command', resource: 'tags', operations: ['list'], action, actor: 'alice', reason: '' }).catch(() => undefined);
          for (let n = 0; n < promotions; n += 1) await command('promote');
          if (hold !== 'none') await command(hold);
          for (const make of noise) await r.control.change(make(r.control.snapshot.config)).catch(() => undefined);
          const text = tagsFile(after);
          await r.control.change({ type: 'publish-config', text, digest: configDigest(text), config: parsed(text), actor: 'file' });
          expectValid(r.control.snapshot, r.now());
        },
      ),
      { numRuns: RUNS },
    );
    // and over whole random histories with random files
    await fc.assert(
      fc.asyncProperty(fileText, fc.array(event, { maxLength: 25 }), fileText, async (text, events, edited) => {
        const r = replica(text);
        await r.control.publishPending();
        for (const make of events) {
          r.tick(500);
          await r.control.change(make(r.control.snapshot.config)).catch(() => undefined);
        }
        await r.control
          .change({ type: 'publish-config', text: edited, digest: configDigest(edited), config: parsed(edited), actor: 'file' })
          .catch(() => undefined);
        expectValid(r.control.snapshot, r.now());
      }),
      { numRuns: RUNS },
    );
  });

  it('a snapshot made from no document at all is the file alone', () => {
    const s = firstSnapshot({ file: undefined, config: NO_ROLLOUT, digest: '', loadedAt: undefined, lastError: null, refused: null, rollbacks: {} }, () => ({
      ok: true,
      config: NO_ROLLOUT,
    }));
    expect(s.doc).toBe(EMPTY_DOC);
    expect(request(s, { caller: 'x', forced: 'native', secret: SECRET }, 'groups', 'get')).toMatchObject({ backend: 'translate', why: 'no-rollout' });
  });
});
