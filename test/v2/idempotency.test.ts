import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS } from '../../src/exchange/keyed-create.js';
import type { IdempotencyStore } from '../../src/stores/idempotency-store.js';
import { MemoryIdempotency } from '../../src/stores/memory-idempotency.js';
import { RedisIdempotency } from '../../src/stores/redis-idempotency.js';
import { call, workloadIdentity } from '../support/emulator-harness.js';
import { A_TEAM, TOKENS } from '../support/fixtures.js';
import { type TestIssuer, startTestIssuer } from '../support/oidc-issuer.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { HAVE_REDIS, RedisServer } from '../support/redis-server.js';

describe('Idempotency-Key on create, one replica (in memory)', () => {
  let env: ProxyOnEmulator;
  const posts = async () => (await env.h.dev('GET', '/__emulator/stats')).body.requests[`POST /iam/v1/identities/${A_TEAM}`] ?? 0;
  const create = (key: string | undefined, body: unknown) =>
    call(env.proxy.url, 'POST', `/iam/v2beta1/identities/${A_TEAM}`, {
      token: TOKENS.alice,
      body,
      ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
    });
  const bot = (name: string) => ({ name, claimMatch: { issuer: 'https://gh', subject: `repo:${name}` } });
  beforeAll(async () => {
    env = await startProxyOnEmulator();
  });
  afterAll(() => env.close());

  it('a retry with the same key and body gets the first answer without a second v1 create', async () => {
    const before = await posts();
    const first = await create('k-retry', bot('retried'));
    const again = await create('k-retry', bot('retried'));
    expect(first.status).toBe(200);
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect((await posts()) - before).toBe(1);
    // without a key, two creates are two resources
    const a = await create(undefined, bot('twice'));
    const b = await create(undefined, bot('twice'));
    expect(a.body.uid).not.toBe(b.body.uid);
  });

  it('concurrent requests with one key make one v1 create and all get its answer', async () => {
    const before = await posts();
    const answers = await Promise.all(Array.from({ length: 10 }, () => create('k-race', bot('raced'))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.uid)).size).toBe(1);
    expect((await posts()) - before).toBe(1);
  });

  it('the same key with another body is INVALID_ARGUMENT; a malformed key too; a failed first request frees its key', async () => {
    await create('k-other', bot('first'));
    const other = await create('k-other', bot('second'));
    expect(other.status).toBe(400);
    expect(other.body.message).toBe('Invalid argument: Idempotency-Key: was already used with another request; use a new key for a new request');
    const bad = await create('has space', bot('x'));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Invalid argument: Idempotency-Key: must be one header of 1 to 255 visible ASCII characters');
    const refused = await create('k-fix', { name: 'NO CAPITALS', claimMatch: { issuer: 'https://gh', subject: 'repo:x' } });
    expect(refused.status).toBe(400);
    const fixed = await create('k-fix', bot('fixed'));
    expect(fixed.status).toBe(200);
  });

  it('a record lasts 24 h (test clock)', async () => {
    const now = { t: 1_000 };
    const store = new MemoryIdempotency(10, () => now.t);
    expect(await store.claim('k', 'r', 'o1', 60_000)).toEqual({ state: 'owner' });
    expect(await store.claim('k', 'r', 'o2', 60_000)).toEqual({ state: 'busy' });
    expect(await store.complete('k', 'o1', { request: 'r', answer: '{"uid":"x"}', by: 'f' }, IDEMPOTENCY_TTL_MS)).toBe(true);
    now.t += IDEMPOTENCY_TTL_MS - 1;
    expect(await store.claim('k', 'r', 'o3', 60_000)).toEqual({ state: 'done', answer: '{"uid":"x"}', by: 'f' });
    expect(await store.claim('k', 'other', 'o3', 60_000)).toEqual({ state: 'mismatch' });
    now.t += 2;
    expect(await store.claim('k', 'other', 'o3', 60_000)).toEqual({ state: 'owner' });
  });
});

describe('Idempotency-Key: one caller across its tokens', () => {
  let issuer: TestIssuer;
  let env: ProxyOnEmulator;
  let identity: string;
  const SUB = 'system:serviceaccount:prod:deployer';
  const posts = async () => (await env.h.dev('GET', '/__emulator/stats')).body.requests[`POST /iam/v1/identities/${A_TEAM}`] ?? 0;
  const create = (token: string, key: string, authorization = `Bearer ${token}`) =>
    call(env.proxy.url, 'POST', `/iam/v2beta1/identities/${A_TEAM}`, {
      body: { name: 'made-once', claimMatch: { issuer: 'https://gh', subject: 'repo:made-once' } },
      headers: { 'idempotency-key': key, authorization },
    });
  // an API token of the workload identity; another audience list makes another token of the same subject
  const apiToken = async (audiences: string[]) => {
    const query = audiences.map((a) => `aud=${encodeURIComponent(a)}`).join('&');
    const res = await call(env.proxy.url, 'GET', `/sts/exchange?${query}&identity=${identity}`, { token: await issuer.mint({ sub: SUB }) });
    expect(res.status).toBe(200);
    return res.body.token as string;
  };
  beforeAll(async () => {
    issuer = await startTestIssuer();
    env = await startProxyOnEmulator({}, undefined, { trustedIssuers: [issuer.url] });
    identity = await workloadIdentity(env.h, { name: 'deployer', group: A_TEAM, issuer: issuer.url, subject: SUB, role: 'owner' });
  });
  afterAll(async () => {
    await env.close();
    await issuer.close();
  });

  it('a retry with a refreshed JWT of the same subject gets the first answer: one create; a forged token naming that subject gets nothing', async () => {
    const first = await apiToken([env.proxy.settings.publicUrl]);
    const refreshed = await apiToken([env.proxy.settings.publicUrl, 'https://other.example']);
    expect(refreshed).not.toBe(first);
    const before = await posts();
    const made = await create(first, 'k-refresh');
    expect(made.status).toBe(200);
    const again = await create(refreshed, 'k-refresh');
    expect(again).toMatchObject({ status: 200, body: made.body });
    // the scheme's spelling is not another caller either
    expect(await create(first, 'k-refresh', `bEaReR  ${first}`)).toMatchObject({ status: 200, body: made.body });
    expect((await posts()) - before).toBe(1);
    // the same claims under a signature v1 does not accept: v1 refuses it, the first answer is not shown
    const [head, payload] = refreshed.split('.');
    const forged = await create(`${head}.${payload}.${'A'.repeat(43)}`, 'k-refresh');
    expect(forged.status).toBe(401);
    expect(JSON.stringify(forged.body)).not.toContain(made.body.uid);
    expect((await posts()) - before).toBe(1);
  });
});

// one case suite, run against both stores: a claim is its owner's alone
const stores: [string, () => Promise<{ store: IdempotencyStore; lapse: (key: string) => Promise<void>; close: () => Promise<void> }>][] = [
  [
    'memory',
    async () => {
      const now = { t: 1_000 };
      return {
        store: new MemoryIdempotency(10, () => now.t),
        lapse: async () => {
          now.t += 60_001;
        },
        close: async () => {},
      };
    },
  ],
];
if (HAVE_REDIS) {
  stores.push([
    'redis',
    async () => {
      const server = await RedisServer.start();
      const client = new Redis(server.url);
      return {
        store: new RedisIdempotency(client),
        // the claim's time ends now (as PX would at its end)
        lapse: async (key) => void (await client.pexpire(`v2proxy:idem:${key}`, 0)),
        close: async () => {
          client.disconnect();
          await server.stop();
        },
      };
    },
  ]);
}

describe.each(stores)('Idempotency records (%s): two owners racing on one claim', (_name, open) => {
  it('an owner whose claim lapsed and was claimed again can neither complete nor release it; the new owner can', async () => {
    const { store, lapse, close } = await open();
    try {
      expect(await store.claim('k', 'r', 'first', 60_000)).toEqual({ state: 'owner' });
      await lapse('k');
      expect(await store.claim('k', 'r', 'second', 60_000)).toEqual({ state: 'owner' });
      // the first owner's create finished late: its answer does not replace the second's claim
      expect(await store.complete('k', 'first', { request: 'r', answer: '{"uid":"late"}', by: 'f1' }, 60_000)).toBe(false);
      await store.release('k', 'first');
      expect(await store.claim('k', 'r', 'third', 60_000)).toEqual({ state: 'busy' });
      expect(await store.complete('k', 'second', { request: 'r', answer: '{"uid":"kept"}', by: 'f2' }, 60_000)).toBe(true);
      // done: neither owner can take it back
      await store.release('k', 'second');
      expect(await store.claim('k', 'r', 'third', 60_000)).toEqual({ state: 'done', answer: '{"uid":"kept"}', by: 'f2' });
    } finally {
      await close();
    }
  });
});
