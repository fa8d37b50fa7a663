import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, TOKENS } from '../support/fixtures.js';
import { startProxy } from '../support/proxy-harness.js';
import { HAVE_REDIS, type RedisServer, startRedisServer } from '../support/redis-server.js';

const ADMIN = 'admin-token-of-the-fleet';

/** Asks until `check` holds or `ms` pass; what it last saw. */
async function within<T>(ms: number, read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// Skipped only on a developer machine without redis-server; CI installs it and fails without it.
describe.skipIf(!HAVE_REDIS)('three replicas as one fleet on one Redis (a real redis-server)', () => {
  let redisServer: RedisServer;
  let h: EmulatorHarness;
  let replicas: RunningProxy[];
  let env: Record<string, string>;
  const at = (i: number) => (replicas[i] as RunningProxy).url;
  const admin = (i: number, method: string, path: string) => call(at(i), method, path, { token: ADMIN });
  const side = async (i: number, path = `/iam/v2beta1/groups/${A}`) =>
    (await call(at(i), 'GET', path, { token: TOKENS.alice })).headers.get('x-v2proxy-backend');
  const sides = () => Promise.all([0, 1, 2].map((i) => side(i)));

  beforeAll(async () => {
    redisServer = await startRedisServer();
    h = await startHarness();
    const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-fleet-')), 'rollout.yaml');
    writeFileSync(
      file,
      'routes:\n  - resource: groups\n    operations: [get]\n    native: 100\n  - resource: roles\n    operations: [get]\n    native: 100\n' +
        '  - resource: identities\n    operations: [get]\n    shadow: 100\n    ignore: [createTime, updateTime]\n' +
        '  - resource: groups\n    operations: [create, update, delete]\n    verifyWrites: 100\n    ignore: [createTime, updateTime]\n' +
        'guard:\n  windowSeconds: 60\n  minRequests: 5\n  maxErrorRate: 0.5\n  cooldownSeconds: 300\n',
    );
    // snapshots kept for a minute: only the fleet's news can end them early
    env = {
      V1_BASE_URL: h.url,
      V2_BASE_URL: h.v2url,
      ROLLOUT_FILE: file,
      ADMIN_TOKEN: ADMIN,
      REDIS_URL: redisServer.url,
      PAGE_TOKEN_SECRET: 'shared-secret-of-the-fleet',
      LIST_CACHE_TTL_MS: '60000',
    };
    replicas = await Promise.all([startProxy(env), startProxy(env), startProxy(env)]);
  });
  afterAll(async () => {
    for (const r of replicas ?? []) await r.close();
    await h?.close();
    await redisServer?.close();
  });

  it('a write through one replica ends the list snapshots of that resource on the others: their next list shows it', async () => {
    const list = (i: number) => call(at(i), 'GET', `/iam/v2beta1/groups?uidp.children_of=${A}&page_size=100`, { token: TOKENS.alice });
    const names = (res: { body: { groups: { name: string }[] } }) => res.body.groups.map((g) => g.name);
    // B and C keep a snapshot of the list
    expect(names(await list(1))).not.toContain('seen-everywhere');
    expect(names(await list(2))).not.toContain('seen-everywhere');
    const made = await call(at(0), 'POST', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice, body: { name: 'seen-everywhere' } });
    expect(made.status).toBe(200);
    const started = Date.now();
    expect(
      names(
        await within(
          1_000,
          () => list(1),
          (res) => names(res).includes('seen-everywhere'),
        ),
      ),
    ).toContain('seen-everywhere');
    expect(
      names(
        await within(
          1_000,
          () => list(2),
          (res) => names(res).includes('seen-everywhere'),
        ),
      ),
    ).toContain('seen-everywhere');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('the kill switch pulled on one replica holds for all within 1 s, resume too, and a restarted replica comes up killed', async () => {
    expect(await sides()).toEqual(['native', 'native', 'native']);
    expect((await admin(0, 'POST', '/admin/rollout/kill')).status).toBe(200);
    const started = Date.now();
    expect(await within(1_000, sides, (s) => s.every((x) => x === 'translate'))).toEqual(['translate', 'translate', 'translate']);
    expect(Date.now() - started).toBeLessThan(1_000);
    // a replica restarted while the fleet is killed reads that before it serves
    await (replicas[2] as RunningProxy).close();
    replicas[2] = await startProxy(env);
    expect(await side(2)).toBe('translate');
    expect((await admin(2, 'GET', '/admin/rollout')).body).toMatchObject({ killSwitch: true, fleet: { version: expect.any(Number) } });
    expect((await admin(1, 'POST', '/admin/rollout/resume')).status).toBe(200);
    expect(await within(1_000, sides, (s) => s.every((x) => x === 'native'))).toEqual(['native', 'native', 'native']);
    const metrics = (await admin(2, 'GET', '/metrics')).body as string;
    expect(metrics).toMatch(/^v2proxy_kill_switch 0$/m);
    expect(metrics).toMatch(/^v2proxy_control_version [1-9]\d*$/m);
  });

  it('the guard counts for the fleet: failures spread over the three (too few on each to trip alone) roll the route back for all, logged and counted once', async () => {
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/roles', status: 503 }] } });
    try {
      const role = `/iam/v2beta1/roles/${A}`;
      const all = () => Promise.all([0, 1, 2].map((i) => side(i, role)));
      // two failing native answers on each replica: six in the fleet's window, minRequests is 5
      for (let round = 0; round < 2; round += 1) expect(await all()).toEqual(['native', 'native', 'native']);
      // watched without sending more traffic (which each replica's own count could trip on)
      const rolledBack = () =>
        Promise.all(
          [0, 1, 2].map(
            async (i) => (await admin(i, 'GET', '/admin/rollout')).body.routes.find((r: { resource: string }) => r.resource === 'roles').rolledBack,
          ),
        );
      const started = Date.now();
      expect(await within(1_000, rolledBack, (s) => s.every(Boolean))).toEqual([true, true, true]);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(await all()).toEqual(['translate', 'translate', 'translate']);
      const counted = await Promise.all(
        [0, 1, 2].map(async (i) =>
          Number(/^v2proxy_rollout_rollbacks_total\{resource="roles"\} (\d+)$/m.exec((await admin(i, 'GET', '/metrics')).body)?.[1] ?? 0),
        ),
      );
      expect(counted.reduce((a, b) => a + b, 0)).toBe(1);
      for (const i of [0, 1, 2]) {
        expect((await admin(i, 'GET', '/admin/rollout')).body.routes.find((r: { resource: string }) => r.resource === 'roles')).toMatchObject({
          rolledBack: true,
          rollbacks: 1,
        });
        expect((await admin(i, 'GET', '/metrics')).body).toMatch(/^v2proxy_route_rolled_back\{resource="roles",operations="get"\} 1$/m);
      }
    } finally {
      await h.dev('DELETE', '/__emulator/faults');
    }
  });

  it('Redis stopped: every replica keeps serving on the state it has, reports staleness and refuses an admin change; back, they catch up', async () => {
    await redisServer.stop();
    try {
      expect(await sides()).toEqual(['native', 'native', 'native']);
      const refused = await admin(0, 'POST', '/admin/rollout/kill');
      expect([refused.status, refused.body.code]).toEqual([503, 14]);
      expect(await sides()).toEqual(['native', 'native', 'native']);
      const stale = await within(
        3_000,
        async () => (await admin(1, 'GET', '/admin/rollout')).body.fleet.staleSeconds as number,
        (s) => s >= 1,
      );
      expect(stale).toBeGreaterThanOrEqual(1);
    } finally {
      await redisServer.restart();
    }
    // back (without its data: this Redis keeps nothing across a restart), the fleet state is there again
    expect(
      (
        await within(
          5_000,
          () => admin(2, 'POST', '/admin/rollout/kill'),
          (r) => r.status === 200,
        )
      ).status,
    ).toBe(200);
    expect(await within(1_000, sides, (s) => s.every((x) => x === 'translate'))).toEqual(['translate', 'translate', 'translate']);
    expect((await admin(0, 'GET', '/admin/rollout')).body.fleet.staleSeconds).toBeLessThan(1);
    await admin(0, 'POST', '/admin/rollout/resume');
  });

  it('/admin/fleet on any replica lists every live replica with the version it applied; the metrics show the circuit and the control version', async () => {
    await admin(0, 'POST', '/admin/rollout/kill');
    try {
      // every replica follows the same rollout file, the one the fleet loaded last
      const { digest, fleetDigest } = await within(
        2_000,
        async () => (await admin(0, 'GET', '/admin/rollout')).body.fleet,
        (f) => f.fleetDigest !== '' && f.fleetDigest === f.digest,
      );
      expect(digest).toMatch(/^[0-9a-f]{16}$/);
      expect(fleetDigest).toBe(digest);
      const fleet = await within(
        3_000,
        async () => (await admin(1, 'GET', '/admin/fleet')).body,
        (f) => f.replicas.length === 3 && f.replicas.every((r: { stale: boolean; version: number }) => !r.stale && r.version === f.version),
      );
      const version = (await admin(0, 'GET', '/admin/rollout')).body.fleet.version as number;
      expect(fleet.version).toBe(version);
      expect(fleet.replicas.map((r: { address: string }) => `http://${r.address}`).sort()).toEqual([at(0), at(1), at(2)].sort());
      for (const r of fleet.replicas) {
        expect(r).toMatchObject({
          id: expect.any(String),
          version,
          rolloutDigest: digest,
          stale: false,
          checkedAt: expect.any(String),
          uptimeSeconds: expect.any(Number),
        });
      }
      const metrics = (await admin(2, 'GET', '/metrics')).body as string;
      expect(metrics).toMatch(/^v2proxy_circuit_open\{backend="v1"\} 0$/m);
      expect(metrics).toMatch(new RegExp(`^v2proxy_control_version ${version}$`, 'm'));
      expect(metrics).toMatch(/^v2proxy_control_stale_seconds (0|0\.\d+)$/m);
    } finally {
      await admin(0, 'POST', '/admin/rollout/resume');
    }
  });

  it('one diff report: reads shadowed on A and B show on C, a restart keeps it, a reset on any replica empties it for all', async () => {
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/identities', set: { description: 'planted' } }] } });
    try {
      const uid = (await call(at(0), 'GET', '/iam/v2beta1/identities?page_size=1', { token: TOKENS.alice })).body.identities[0].uid as string;
      const read = (i: number, id: string) => call(at(i), 'GET', `/iam/v2beta1/identities/${uid}`, { token: TOKENS.alice, headers: { 'x-request-id': id } });
      expect((await read(0, 'shadowed-on-a')).status).toBe(200);
      expect((await read(1, 'shadowed-on-b')).status).toBe(200);
      type Route = { resource: string; operation: string; compared: number; fields: { path: string; samples: { requestId: string }[] }[] };
      const route = async (i: number) =>
        ((await admin(i, 'GET', '/admin/diff.json')).body.routes as Route[]).find((r) => r.resource === 'identities' && r.operation === 'get');
      const onC = await within(
        3_000,
        () => route(2),
        (r) => (r?.compared ?? 0) >= 2,
      );
      expect(onC?.compared).toBe(2);
      expect(onC?.fields.map((f) => f.path)).toEqual(['description']);
      expect(onC?.fields[0]?.samples.map((x) => x.requestId).sort()).toEqual(['shadowed-on-a', 'shadowed-on-b']);
      // a restarted replica shows the same report
      await (replicas[2] as RunningProxy).close();
      replicas[2] = await startProxy(env);
      expect((await route(2))?.compared).toBe(2);
      expect((await admin(1, 'POST', '/admin/diff/reset')).status).toBe(200);
      for (const i of [0, 1, 2]) expect(await route(i)).toBeUndefined();
    } finally {
      await h.dev('DELETE', '/__emulator/faults');
    }
  });

  it('writes verified on A and B show on C, with the other side’s planted difference and both samples', async () => {
    await admin(0, 'POST', '/admin/diff/reset');
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/groups', method: 'GET', set: { kind: 'planted' } }] } });
    try {
      const write = async (i: number, id: string) => {
        const made = await call(at(i), 'POST', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice, body: { name: `fleet-verified-${id}` } });
        expect(made.status).toBe(200);
        const patched = await call(at(i), 'PATCH', `/iam/v2beta1/groups/${made.body.uid}?update_mask=description`, {
          token: TOKENS.alice,
          headers: { 'x-request-id': id },
          body: { description: id },
        });
        expect(patched.status).toBe(200);
      };
      await write(0, 'written-on-a');
      await write(1, 'written-on-b');
      type Write = {
        resource: string;
        operation: string;
        verified: number;
        checks: Record<string, { differed: number }>;
        fields: { check: string; path: string; samples: { requestId: string }[] }[];
      };
      const update = async (i: number) =>
        ((await admin(i, 'GET', '/admin/diff.json')).body.writes as Write[]).find((w) => w.resource === 'groups' && w.operation === 'update');
      const onC = await within(
        5_000,
        () => update(2),
        (w) => (w?.verified ?? 0) >= 2,
      );
      expect(onC?.checks['other side']?.differed).toBe(2);
      expect(onC?.fields.map((f) => [f.check, f.path])).toEqual([['other side', 'kind']]);
      expect(onC?.fields[0]?.samples.map((x) => x.requestId).sort()).toEqual(['written-on-a', 'written-on-b']);
    } finally {
      await h.dev('DELETE', '/__emulator/faults');
    }
  });

  it("the fleet's traffic: reads served by each replica add up on every one, per side, with error rates and p99", async () => {
    type Row = {
      resource: string;
      operation: string;
      route: string | null;
      sides: Record<'translate' | 'native', { served: number; errors: number; p99Ms: number | null }>;
    };
    const row = async (i: number, resource: string, operation: string) =>
      ((await admin(i, 'GET', '/admin/rollout')).body.traffic as Row[]).find((r) => r.resource === resource && r.operation === operation);
    // groups get: native for every caller (roles get is rolled back by the guard's case)
    const before = (await row(2, 'groups', 'get'))?.sides.native ?? { served: 0, errors: 0 };
    for (const i of [0, 1, 0, 1]) expect(await side(i)).toBe('native');
    // counts reach the fleet within a second of being served; C served none of them
    const onC = await within(
      3_000,
      () => row(2, 'groups', 'get'),
      (r) => (r?.sides.native.served ?? 0) >= before.served + 4,
    );
    expect(onC).toMatchObject({ route: 'groups|get', sides: { native: { served: before.served + 4, errors: before.errors } } });
    expect(onC?.sides.native.p99Ms).toEqual(expect.any(Number));
    // a resource no route serves is listed too, translated
    expect(await row(2, 'tags', 'list')).toMatchObject({ route: null });
  });
});
