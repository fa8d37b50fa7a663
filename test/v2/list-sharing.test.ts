import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/load-settings.js';
import { MetaStore, type Sighting, type TimesStore } from '../../src/meta/meta-store.js';
import { buildProxyApp } from '../../src/app/build-proxy-app.js';
import { type EmulatorHarness, call, startHarness } from '../support/emulator-harness.js';
import { A, A_TEAM, A_TEAM_SUB, DEV_TOKEN, TOKENS } from '../support/fixtures.js';
import { settingsFrom } from '../support/proxy-harness.js';

/** The times store, counting the reads that translated a v1 answer (each translation observes its records once). */
class CountingTimes implements TimesStore {
  readonly store = new MetaStore();
  translations = 0;
  observe(seen: readonly Sighting[], now: number) {
    this.translations += 1;
    return this.store.observe(seen, now);
  }
  written(key: string, now: number, created: boolean) {
    return this.store.written(key, now, created);
  }
  removed(key: string) {
    return this.store.removed(key);
  }
  close() {
    return this.store.close();
  }
}

describe('a caller given byte for byte the v1 answer behind another caller’s kept snapshot shares its content, and only then', () => {
  let h: EmulatorHarness;
  let app: FastifyInstance;
  let url: string;
  let clock = Date.parse('2026-11-22T10:00:00Z');
  const times = new CountingTimes();
  const stats = async () => (await h.dev('GET', '/__emulator/stats')).body as { total: number };
  const reset = () => h.dev('POST', '/__emulator/stats/reset');
  const list = (token: string, query: string) => call(url, 'GET', `/iam/v2beta1/groups?${query}`, { token });
  const uids = (body: { groups: { uid: string }[] }) => body.groups.map((g) => g.uid);

  beforeAll(async () => {
    h = await startHarness();
    app = await buildProxyApp(resolveSettings(settingsFrom({ V1_BASE_URL: h.url }), h.url, 0), { now: () => clock, meta: times });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  it('the second caller makes its own v1 call, which shows the same records, and translates nothing', async () => {
    const query = `uidp.descendants_of=${A_TEAM}&order_by=name`;
    const carol = await list(TOKENS.carol, query);
    expect(carol.status).toBe(200);
    expect(uids(carol.body)).toEqual([A_TEAM_SUB]);
    expect(times.translations).toBe(1);

    await reset();
    const alice = await list(TOKENS.alice, query);
    expect(alice.status).toBe(200);
    expect(alice.body).toEqual(carol.body);
    // alice's own v1 call is what proves she sees the same records; nothing was translated again
    expect((await stats()).total).toBe(1);
    expect(times.translations).toBe(1);

    // another order is another snapshot: translated
    expect((await list(TOKENS.alice, `uidp.descendants_of=${A_TEAM}&order_by=name desc`)).status).toBe(200);
    expect(times.translations).toBe(2);
  });

  it('a caller to whom v1 answers differently gets its own snapshot, never the content of another’s', async () => {
    // a group of tenant A outside carol's team: alice sees it, carol does not
    const side = await call(h.url, 'POST', `/iam/v1/groups/${A}`, { token: DEV_TOKEN, body: { name: 'side' } });
    expect(side.status).toBe(200);
    const query = `uidp.descendants_of=${A}&order_by=name`;
    const alice = await list(TOKENS.alice, query);
    expect(alice.status).toBe(200);
    expect(uids(alice.body)).toContain(side.body.id);
    const before = times.translations;
    const carol = await list(TOKENS.carol, query);
    expect(carol.status).toBe(200);
    const direct = await call(h.url, 'GET', `/iam/v1/groups?uidp.descendants_of=${A}`, { token: TOKENS.carol });
    expect(uids(carol.body).sort()).toEqual((direct.body.items as { id: string }[]).map((g) => g.id).sort());
    expect(uids(carol.body)).not.toContain(side.body.id);
    expect(times.translations).toBe(before + 1);
  });

  it('a write through the proxy stops the sharing of that resource: the writer’s next list shows its times, though v1 answers as before', async () => {
    const query = `uidp.descendants_of=${A_TEAM}&order_by=uid`;
    // carol's snapshot is the one kept for sharing; alice shares it
    expect((await list(TOKENS.carol, query)).status).toBe(200);
    const shared = await list(TOKENS.alice, query);
    const before = times.translations;
    expect(shared.body.groups[0].uid).toBe(A_TEAM_SUB);

    // alice changes the description and puts it back: v1's answer is again what it was, byte for byte
    const original = shared.body.groups[0].description as string;
    clock += 60_000;
    const changed = await call(url, 'PATCH', `/iam/v2beta1/groups/${A_TEAM_SUB}`, { token: TOKENS.alice, body: { description: 'changed' } });
    expect(changed.status).toBe(200);
    clock += 60_000;
    const restored = await call(url, 'PATCH', `/iam/v2beta1/groups/${A_TEAM_SUB}`, { token: TOKENS.alice, body: { description: original } });
    expect(restored.status).toBe(200);

    const after = await list(TOKENS.alice, query);
    expect(after.body.groups[0].description).toBe(original);
    expect(after.body.groups[0].updateTime).toBe(restored.body.updateTime);
    expect(after.body.groups[0].updateTime).not.toBe(shared.body.groups[0].updateTime);
    expect(times.translations).toBe(before + 1);
  });

  it('a read that moved a time stops the sharing of older contents: v1 answering as it did before the change does not bring back the old time', async () => {
    const query = `uidp.descendants_of=${A_TEAM}&order_by=name desc&page_size=5`;
    const v1Patch = (description: string) =>
      call(h.url, 'PUT', `/iam/v1/groups/${A_TEAM_SUB}`, { token: DEV_TOKEN, body: { id: A_TEAM_SUB, name: 'sub', description } });
    const first = await list(TOKENS.carol, query);
    expect(first.status).toBe(200);
    const original = first.body.groups[0].description as string;

    // v1 changes the group, alice's list sees it (its updateTime moves), then v1 changes it back
    clock += 60_000;
    expect((await v1Patch('changed in v1')).status).toBe(200);
    const changed = await list(TOKENS.alice, query);
    expect(changed.body.groups[0].description).toBe('changed in v1');
    expect(changed.body.groups[0].updateTime).toBe(new Date(clock).toISOString());
    clock += 60_000;
    expect((await v1Patch(original)).status).toBe(200);

    // a third caller is answered byte for byte as carol was, but the record changed since that read
    const before = times.translations;
    const third = await call(url, 'GET', `/iam/v2beta1/groups?${query}`, { token: DEV_TOKEN });
    expect(third.body.groups[0].description).toBe(original);
    expect(third.body.groups[0].updateTime).toBe(new Date(clock).toISOString());
    expect(times.translations).toBe(before + 1);
  });
});
