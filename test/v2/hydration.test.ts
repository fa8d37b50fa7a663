import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LookupCache } from '../../src/hydrate/lookup-cache.js';
import { A_TEAM, ALICE, B, CAROL, DEV_TOKEN, TOKENS, childUid, twoTenantSeed } from '../support/fixtures.js';
import { call } from '../support/emulator-harness.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

const BOTS = 240;
const USER = childUid(B, 'dora'); // an identity of tenant B bound in tenant A: A's members cannot see it
const bot = (i: number) => childUid(A_TEAM, `bot-${i}`);

function seed() {
  const s = twoTenantSeed();
  for (let i = 0; i < BOTS; i += 1) {
    s.identities?.push({ id: bot(i), name: `bot-${i}`, description: `robot ${i}`, claimMatch: { issuer: 'https://ci', subject: `bot-${i}` } });
    s.rolebindings?.push({ id: childUid(A_TEAM, `rb-bot-${i}`), identity: bot(i), role: 'viewer' });
  }
  s.identities?.push({ id: USER, name: 'dora', description: 'a person', claimMatch: { issuer: 'https://accounts', subject: 'dora' } });
  s.rolebindings?.push({ id: childUid(A_TEAM, 'rb-dora'), identity: USER, role: 'viewer' });
  return s;
}

type Binding = { uid: string; identity: { uid: string; name: string; description: string; issuer?: string; subject?: string } };

describe('role-binding hydration: batched, bounded, per caller', () => {
  let env: ProxyOnEmulator;
  const stats = async () => (await call(env.h.url, 'GET', '/__emulator/stats')).body as { total: number; requests: Record<string, number> };
  const reset = () => call(env.h.url, 'POST', '/__emulator/stats/reset');
  const list = (query: string, token = DEV_TOKEN) => call(env.proxy.url, 'GET', `/iam/v2beta1/roleBindings?${query}`, { token });

  beforeAll(async () => {
    // every page re-checks access (AIP-158) so that call counts do not depend on the clock
    env = await startProxyOnEmulator({ LIST_REAUTH_MS: '0' }, undefined, { seed: seed() });
  });
  afterAll(() => env.close());

  it('a List page of 200 costs 2 v1 calls (the list, one batched identity lookup); the next page 2 (a one-binding access re-check, the lookup)', async () => {
    await reset();
    const first = await list(`group=${A_TEAM}&page_size=200`);
    expect(first.status).toBe(200);
    expect(first.body.roleBindings).toHaveLength(200);
    expect(await stats()).toEqual({ total: 2, requests: { 'GET /iam/v1/rolebindings': 1, 'GET /iam/v1/identities': 1 } });
    for (const b of first.body.roleBindings as Binding[]) {
      const i = Number(/^bot-(\d+)$/.exec(b.identity.subject ?? '')?.[1] ?? Number.NaN);
      if (Number.isNaN(i)) continue;
      expect(b.identity).toEqual({ uid: bot(i), name: `bot-${i}`, description: `robot ${i}`, issuer: 'https://ci', subject: `bot-${i}` });
    }
    await reset();
    const second = await list(`group=${A_TEAM}&page_size=200&page_token=${first.body.nextPageToken}`);
    expect(second.body.roleBindings.length).toBe(BOTS + 2 - 200);
    expect((await stats()).requests).toEqual({ 'GET /iam/v1/rolebindings': 1, 'GET /iam/v1/identities': 1 });
  });

  it('an identity the caller cannot see leaves name and description empty; the binding is still served', async () => {
    const asCarol = await list(`group=${A_TEAM}&identity=${USER}`, TOKENS.carol);
    expect(asCarol.status).toBe(200);
    expect(asCarol.body.roleBindings).toHaveLength(1);
    expect(asCarol.body.roleBindings[0].identity).toEqual({ uid: USER, name: '', description: '', issuer: 'https://accounts', subject: 'dora' });
    const asDev = await list(`group=${A_TEAM}&identity=${USER}`);
    expect(asDev.body.roleBindings[0].identity).toMatchObject({ uid: USER, name: 'dora', description: 'a person' });
  });

  it('lookups are cached per caller for a short TTL; another caller makes its own', async () => {
    const rb = childUid(A_TEAM, 'rb-carol');
    const get = (token: string) => call(env.proxy.url, 'GET', `/iam/v2beta1/roleBindings/${rb}`, { token });
    await get(TOKENS.alice); // warm alice's lookup of carol
    await reset();
    const again = await get(TOKENS.alice);
    expect(again.body.identity).toMatchObject({ uid: CAROL, name: 'carol' });
    expect((await stats()).requests).toEqual({ 'GET /iam/v1/rolebindings': 1 });
    await reset();
    expect((await get(TOKENS.carol)).body.identity).toMatchObject({ uid: CAROL, name: 'carol' });
    expect((await stats()).requests).toEqual({ 'GET /iam/v1/rolebindings': 1, 'GET /iam/v1/identities': 1 });
  });

  it('identical concurrent lists share one v1 list call and one identity lookup', async () => {
    const token = `token-fresh-${'y'.repeat(12)}`;
    env.h.emu.store.tokens.set(token, ALICE);
    await reset();
    // v1 answers slowly, so all five requests are certain to arrive while the one fetch runs
    await env.h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1/rolebindings', delayMs: 300 }] } });
    const pages = await Promise.all(Array.from({ length: 5 }, () => list(`group=${A_TEAM}&page_size=50`, token)));
    await env.h.dev('DELETE', '/__emulator/faults');
    expect(pages.map((p) => p.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(pages.map((p) => JSON.stringify(p.body.roleBindings))).size).toBe(1);
    expect(await stats()).toEqual({ total: 2, requests: { 'GET /iam/v1/rolebindings': 1, 'GET /iam/v1/identities': 1 } });
  });
});

describe('LookupCache', () => {
  it('fetches only what is neither cached nor under way, in one call, and keeps answers apart per prefix', async () => {
    const cache = new LookupCache({ ttlMs: 60_000, maxEntries: 100 });
    const calls: string[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const fetch = async (missing: string[]) => {
      calls.push(missing);
      await gate;
      return new Map(missing.filter((u) => u !== 'hidden').map((u) => [u, { uid: u, name: `n-${u}` }]));
    };
    const one = cache.getMany('alice|identities|', ['a', 'b', 'a'], fetch);
    const two = cache.getMany('alice|identities|', ['b', 'c', 'hidden'], fetch);
    release();
    expect(Object.fromEntries(await one)).toEqual({ a: { uid: 'a', name: 'n-a' }, b: { uid: 'b', name: 'n-b' } });
    expect(Object.fromEntries(await two)).toEqual({ b: { uid: 'b', name: 'n-b' }, c: { uid: 'c', name: 'n-c' }, hidden: null });
    expect(calls).toEqual([
      ['a', 'b'],
      ['c', 'hidden'],
    ]);
    await cache.getMany('alice|identities|', ['a', 'hidden'], fetch);
    expect(calls).toHaveLength(2);
    await cache.getMany('bob|identities|', ['a'], fetch);
    expect(calls).toEqual([['a', 'b'], ['c', 'hidden'], ['a']]);
  });

  it('a failed lookup fails its callers and is not kept', async () => {
    const cache = new LookupCache({ ttlMs: 60_000, maxEntries: 100 });
    await expect(cache.getMany('p|', ['a'], () => Promise.reject(new Error('v1 down')))).rejects.toThrow('v1 down');
    expect(await cache.getMany('p|', ['a'], async () => new Map([['a', { ok: true }]]))).toEqual(new Map([['a', { ok: true }]]));
  });
});
