import { describe, expect, it } from 'vitest';
import { AuditTrail } from '../../src/rollout/audit-trail.js';
import type { ControlHead, StoredControl } from '../../src/stores/control-store.js';
import { MemoryControlStore } from '../../src/stores/memory-control-store.js';

const record = (seq: number) =>
  JSON.stringify({ id: `r${seq}`, seq, at: '', actor: 'alice', action: 'kill-switch.on', route: null, before: null, after: null, reason: '', figures: null });

describe("a replica's copy of the audit trail", () => {
  it('reads each record once and in order, however its reads interleave with writes and with each other', async () => {
    const store = new MemoryControlStore();
    const trail = new AuditTrail(store);
    let head: ControlHead | null = null;
    const heads: ControlHead[] = [];
    // ten changes of one record each; the copy is asked to catch up to each head, out of order,
    // while later records are already written (a fleet's replicas read while others write)
    for (let seq = 1; seq <= 10; seq += 1) {
      const written = await store.write(head, '{}', [record(seq)], 'e1');
      head = (written.stored as StoredControl).head;
      heads.push(head);
    }
    await Promise.all([heads[2], heads[9], heads[4], heads[6], heads[1]].map((h) => trail.catchUp(h as ControlHead)));
    expect(trail.query({ limit: 100 }).map((r) => r.seq)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    // more come: only those are read
    for (let seq = 11; seq <= 13; seq += 1) head = ((await store.write(head, '{}', [record(seq)], 'e1')).stored as StoredControl).head;
    await Promise.all([trail.catchUp(heads[9] as ControlHead), trail.catchUp(head as ControlHead)]);
    expect(trail.query({ limit: 100 }).map((r) => r.seq)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(trail.oldestFirst().map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('filters by actor and by route, operations in any order', async () => {
    const store = new MemoryControlStore();
    const trail = new AuditTrail(store);
    const on = (seq: number, actor: string, route: { resource: string; operations: string[] } | null) =>
      JSON.stringify({ ...JSON.parse(record(seq)), actor, route });
    const written = await store.write(
      null,
      '{}',
      [on(1, 'alice', { resource: 'groups', operations: ['list', 'get'] }), on(2, 'guard', { resource: 'roles', operations: ['get'] }), on(3, 'bob', null)],
      'e1',
    );
    await trail.catchUp((written.stored as StoredControl).head);
    expect(trail.query({ limit: 10, route: 'groups/get,list' }).map((r) => r.seq)).toEqual([1]);
    expect(trail.query({ limit: 10, route: 'roles' }).map((r) => r.actor)).toEqual(['guard']);
    expect(trail.query({ limit: 10, actor: 'bob' }).map((r) => r.seq)).toEqual([3]);
    expect(trail.query({ limit: 2 }).map((r) => r.seq)).toEqual([3, 2]);
  });
});
