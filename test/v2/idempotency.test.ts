import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS } from '../../src/operations/idempotent-create.js';
import { MemoryIdempotency } from '../../src/stores/memory-idempotency.js';
import { call } from '../support/emulator-harness.js';
import { A_TEAM, TOKENS } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

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
    expect(await store.claim('k', 'r', 60_000)).toEqual({ state: 'owner' });
    expect(await store.claim('k', 'r', 60_000)).toEqual({ state: 'busy' });
    await store.complete('k', 'r', '{"uid":"x"}', IDEMPOTENCY_TTL_MS);
    now.t += IDEMPOTENCY_TTL_MS - 1;
    expect(await store.claim('k', 'r', 60_000)).toEqual({ state: 'done', answer: '{"uid":"x"}' });
    expect(await store.claim('k', 'other', 60_000)).toEqual({ state: 'mismatch' });
    now.t += 2;
    expect(await store.claim('k', 'other', 60_000)).toEqual({ state: 'owner' });
  });
});
