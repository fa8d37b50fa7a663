import { describe, expect, it } from 'vitest';
import { AuditTrail } from '../../src/rollout/audit-trail.js';
import { ControlPlane } from '../../src/rollout/control-plane.js';
import type { KnownRoutes, Operation } from '../../src/rollout/rollout-config.js';
import { configDigest, type FileRead } from '../../src/rollout/rollout-file-check.js';
import { parseRollout } from '../../src/rollout/rollout-config.js';
import type { ControlStore } from '../../src/stores/control-store.js';
import { MemoryControlStore } from '../../src/stores/memory-control-store.js';

const ALL: readonly Operation[] = ['list', 'get', 'create', 'update', 'delete'];
const read = (text: string, known: KnownRoutes): Extract<FileRead, { ok: true }> => {
  const p = parseRollout(text, known);
  if (!p.ok) throw new Error(p.error);
  return { ok: true, config: p.config, text, digest: configDigest(text) };
};

describe('a replica and the fleet configuration it cannot use', () => {
  it('keeps its last good configuration, says why (logged once), and follows the fleet again once it can', async () => {
    // two replicas of one store: B is an older version that knows no tags
    const store = new MemoryControlStore();
    const newer: KnownRoutes = new Map([
      ['groups', ALL],
      ['tags', ['list', 'get'] as Operation[]],
    ]);
    const older: KnownRoutes = new Map([['groups', ALL]]);
    const said: string[] = [];
    const replica = (known: KnownRoutes) =>
      new ControlPlane(
        { store, trail: new AuditTrail(store), now: () => 1_000, known, events: { changed: () => {}, reseeded: () => {}, refused: (m) => said.push(m) } },
        'rollout.yaml',
      );
    const a = replica(newer);
    const b = replica(older);
    const groups = 'routes:\n  - resource: groups\n    native: 40\n';
    b.adopt(read(groups, older));
    await b.publishPending();
    a.apply(await store.read());
    await a.fileRead(read('routes:\n  - resource: tags\n    native: 100\n', newer), 'alice');
    for (let n = 0; n < 2; n += 1) b.apply(await store.read());
    expect(b.snapshot.config.routes.map((r) => r.resource)).toEqual(['groups']);
    expect(b.snapshot.local.refused).toMatch(
      /^the fleet's configuration [0-9a-f]{16} is refused here, the last good one stays in force: routes\[0\]\.resource: not a known resource/,
    );
    expect(said).toHaveLength(1);
    // a configuration it can read again: followed, and nothing refused any more
    await a.fileRead(read('routes:\n  - resource: groups\n    native: 70\n', newer), 'alice');
    b.apply(await store.read());
    expect(b.snapshot.config.routes[0]?.native).toBe(70);
    expect(b.snapshot.local.refused).toBeNull();
  });
});

describe('a command made on a replica that has not yet applied the newest state', () => {
  it('is decided on the newest: a resume right after a kill on another replica resumes', async () => {
    const store = new MemoryControlStore();
    const known: KnownRoutes = new Map([['groups', ALL]]);
    const replica = () =>
      new ControlPlane(
        { store, trail: new AuditTrail(store), now: () => 1_000, known, events: { changed: () => {}, reseeded: () => {}, refused: () => {} } },
        'rollout.yaml',
      );
    const a = replica();
    const b = replica();
    a.adopt(read('routes:\n  - resource: groups\n    native: 100\n', known));
    await a.publishPending();
    b.apply(await store.read());
    await a.change({ type: 'kill-switch', on: true, actor: 'alice', reason: '' });
    // B has not heard of the kill: its copy says the switch is off already
    expect(b.snapshot.killSwitch).toBe(false);
    const made = await b.change({ type: 'kill-switch', on: false, actor: 'bob', reason: '' });
    expect(made.kind).toBe('changed');
    a.apply(await store.read());
    expect([a.snapshot.killSwitch, b.snapshot.killSwitch]).toEqual([false, false]);
  });

  it('is decided on the newest even when a sync applies the newest while the change asks the store', async () => {
    const inner = new MemoryControlStore();
    const known: KnownRoutes = new Map([['groups', ALL]]);
    let b: ControlPlane | undefined;
    // the store B asks: its answer comes after B's fleet sync has applied the newest state meanwhile
    const racing: ControlStore = {
      kind: 'memory',
      head: async () => {
        b?.apply(await inner.read());
        return inner.head();
      },
      read: () => inner.read(),
      write: (...args) => inner.write(...args),
      command: (id) => inner.command(id),
      recordCommand: (c) => inner.recordCommand(c),
      seed: () => inner.seed(),
      audit: (n) => inner.audit(n),
    };
    const events = { changed: () => {}, reseeded: () => {}, refused: () => {} };
    const a = new ControlPlane({ store: inner, trail: new AuditTrail(inner), now: () => 1_000, known, events }, 'rollout.yaml');
    b = new ControlPlane({ store: racing, trail: new AuditTrail(racing), now: () => 1_000, known, events }, 'rollout.yaml');
    a.adopt(read('routes:\n  - resource: groups\n    native: 100\n', known));
    await a.publishPending();
    b.apply(await inner.read());
    await a.change({ type: 'kill-switch', on: true, actor: 'alice', reason: '' });
    expect((await b.change({ type: 'kill-switch', on: false, actor: 'bob', reason: '' })).kind).toBe('changed');
    expect(b.snapshot.killSwitch).toBe(false);
  });
});
