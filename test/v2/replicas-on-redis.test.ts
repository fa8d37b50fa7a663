import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { RedisWriteLock } from '../../src/stores/redis-write-lock.js';
import { type EmulatorHarness, call, startHarness } from '../support/emulator-harness.js';
import { A, A_TEAM, DEV_TOKEN, TOKENS } from '../support/fixtures.js';
import { settingsFrom, startProxy } from '../support/proxy-harness.js';
import { HAVE_REDIS, type RedisServer, startRedisServer } from '../support/redis-server.js';

// Skipped only on a developer machine without redis-server; CI installs it and fails without it.
describe.skipIf(!HAVE_REDIS)('two replicas on one Redis (a real redis-server)', () => {
  let redisServer: RedisServer;
  let h: EmulatorHarness;
  let replicas: RunningProxy[];
  const posts = async () => (await h.dev('GET', '/__emulator/stats')).body.requests[`POST /iam/v1/identities/${A_TEAM}`] ?? 0;
  const newIdentity = async (name: string) =>
    (
      await call(replicas[0]?.url as string, 'POST', `/iam/v2beta1/identities/${A_TEAM}`, {
        token: TOKENS.alice,
        body: { name, claimMatch: { issuer: 'https://gh', subject: 'repo:a' } },
      })
    ).body.uid as string;

  beforeAll(async () => {
    redisServer = await startRedisServer();
    h = await startHarness();
    const env = { V1_BASE_URL: h.url, REDIS_URL: redisServer.url, META_STORE: 'redis', PAGE_TOKEN_SECRET: 'shared-secret-of-the-replicas' };
    replicas = [await startProxy(env), await startProxy(env)];
  });
  afterAll(async () => {
    for (const r of replicas ?? []) await r.close();
    await h?.close();
    await redisServer?.close();
  });

  it('20 concurrent PATCHes of 20 fields of one resource, spread over both replicas, all land, every time', async () => {
    for (let round = 0; round < 3; round += 1) {
      const uid = await newIdentity(`many-${round}`);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call((replicas[i % 2] as RunningProxy).url, 'PATCH', `/iam/v2beta1/identities/${uid}?update_mask=claimMatch.claims.k${i}`, {
            token: TOKENS.alice,
            body: { claimMatch: { claims: { [`k${i}`]: `v${i}` } } },
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      const stored = (await call(h.url, 'GET', `/iam/v1/identities?id=${uid}`, { token: DEV_TOKEN })).body.items[0];
      expect(stored.claimMatch.claims).toEqual(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, `v${i}`])));
    }
  });

  it('the replicas show the same synthesized times (META_STORE=redis)', async () => {
    // groups: v1 keeps no times for them
    const uid = (await call((replicas[0] as RunningProxy).url, 'POST', `/iam/v2beta1/groups?parent=${A}`, { token: TOKENS.alice, body: { name: 'timed' } }))
      .body.uid as string;
    const [one, two] = await Promise.all(replicas.map((r) => call(r.url, 'GET', `/iam/v2beta1/groups/${uid}`, { token: TOKENS.alice })));
    expect(one?.body.createTime).toEqual(expect.any(String));
    expect(two?.body.createTime).toBe(one?.body.createTime);
    expect(two?.body.updateTime).toBe(one?.body.updateTime);
    const patched = await call((replicas[1] as RunningProxy).url, 'PATCH', `/iam/v2beta1/groups/${uid}?update_mask=description`, {
      token: TOKENS.alice,
      body: { description: 'moved' },
    });
    expect(patched.body.updateTime).not.toBe(one?.body.updateTime);
    const seen = await call((replicas[0] as RunningProxy).url, 'GET', `/iam/v2beta1/groups/${uid}`, { token: TOKENS.alice });
    expect(seen.body.updateTime).toBe(patched.body.updateTime);
    expect(seen.body.createTime).toBe(one?.body.createTime);
  });

  it('Idempotency-Key across replicas: concurrent and repeated creates with one key make one v1 create and one answer; another body is INVALID_ARGUMENT', async () => {
    const before = await posts();
    const body = { name: 'once-only', claimMatch: { issuer: 'https://gh', subject: 'repo:idem' } };
    const send = (r: RunningProxy, b: unknown = body) =>
      call(r.url, 'POST', `/iam/v2beta1/identities/${A_TEAM}`, { token: TOKENS.alice, body: b, headers: { 'idempotency-key': 'create-bot-1' } });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send(replicas[i % 2] as RunningProxy)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.uid)).size).toBe(1);
    expect(await send(replicas[1] as RunningProxy)).toMatchObject({ status: 200, body: answers[0]?.body });
    expect((await posts()) - before).toBe(1);
    const other = await send(replicas[0] as RunningProxy, { ...body, name: 'another' });
    expect(other.status).toBe(400);
    expect(other.body.details[1].fieldViolations).toEqual([
      { field: 'Idempotency-Key', description: 'was already used with another request; use a new key for a new request' },
    ]);
    // the key belongs to its caller: another caller's request with it is its own
    const carol = await call((replicas[0] as RunningProxy).url, 'POST', `/iam/v2beta1/identities/${A_TEAM}`, {
      token: TOKENS.carol,
      body,
      headers: { 'idempotency-key': 'create-bot-1' },
    });
    expect(carol.body.uid).not.toBe(answers[0]?.body.uid);
  });

  it('the lock: a crashed holder blocks only until its lease ends; a holder that lost the lock does not write', async () => {
    const redis = new Redis(redisServer.url);
    try {
      const lock = new RedisWriteLock(redis, { leaseMs: 300, waitMs: 5_000, prefix: 'test:lock:' });
      // a holder that died: its lock is there, no one renews it
      await redis.set('test:lock:r/1', 'dead-holder', 'PX', 300);
      const waited = performance.now();
      expect(await lock.run('r/1', async () => 'mine')).toBe('mine');
      expect(performance.now() - waited).toBeGreaterThan(100);

      // a holder that stalled while the lock went to someone else (its key was taken over)
      const stalled = lock.run('r/2', async (fence) => {
        await redis.set('test:lock:r/2', 'the-next-holder');
        await fence();
        return 'wrote';
      });
      await expect(stalled).rejects.toMatchObject({ code: 10, message: expect.stringContaining('the write lock was lost before writing') });
      expect(await redis.get('test:lock:r/2')).toBe('the-next-holder'); // not released by the one who lost it
    } finally {
      redis.disconnect();
    }
  });
});

describe('REDIS_URL checks at start', () => {
  it('META_STORE=redis needs REDIS_URL, and REDIS_URL must be a redis URL', () => {
    expect(() => settingsFrom({ META_STORE: 'redis' })).toThrow('META_STORE: redis needs REDIS_URL');
    expect(() => settingsFrom({ REDIS_URL: 'http://x' })).toThrow('REDIS_URL: must be a redis:// or rediss:// URL');
  });
});
