import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, A_TEAM, ALICE, B, CAROL, CUSTOM_ROLE_A, DEV_TOKEN, REPO_A, TOKENS, childUid, twoTenantSeed } from '../support/fixtures.js';
import { type Answer, call } from '../support/emulator-harness.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { aipError, badRequest } from '../support/aip.js';

const GROUPS = 237;
const seed = () => {
  const s = twoTenantSeed();
  for (let i = 0; i < GROUPS; i += 1)
    s.groups?.push({ id: childUid(A_TEAM, `bulk-${i}`), name: `g-${String(i % 40).padStart(2, '0')}`, description: `bulk ${i}` });
  return s;
};

type Page = { items: { uid: string; name?: string }[]; next: string; total: string; skipped: number; status: number };

describe('v2 lists: cursors, ordering, skip and totals', () => {
  let env: ProxyOnEmulator;
  let expectedByName: string[];
  const bulkQuery = `uidp.children_of=${A_TEAM}`;

  const page = async (query: string, token = DEV_TOKEN, resource = 'groups', prefix = '/iam/v2beta1'): Promise<Page> => {
    const res: Answer = await call(env.proxy.url, 'GET', `${prefix}/${resource}?${query}`, { token });
    return { items: res.body[resource] ?? [], next: res.body.nextPageToken, total: res.body.totalCount, skipped: res.body.skipped, status: res.status };
  };
  const walk = async (query: string, pageSize: number, token = DEV_TOKEN) => {
    const seen: string[] = [];
    let next = '';
    for (let i = 0; i < 2000; i += 1) {
      const p = await page(`${query}&page_size=${pageSize}${next ? `&page_token=${next}` : ''}`, token);
      expect(p.status).toBe(200);
      expect(p.items.length).toBeLessThanOrEqual(pageSize);
      seen.push(...p.items.map((g) => g.uid));
      next = p.next;
      if (next === '') return seen;
    }
    throw new Error('walk did not end');
  };
  const v1Stats = async () => (await call(env.h.url, 'GET', '/__emulator/stats')).body as { total: number; requests: Record<string, number> };
  const resetStats = () => call(env.h.url, 'POST', '/__emulator/stats/reset');

  beforeAll(async () => {
    // every page re-checks access (AIP-158) so that call counts do not depend on the clock
    env = await startProxyOnEmulator({ LIST_REAUTH_MS: '0' }, undefined, { seed: seed() });
    const v1 = await call(env.h.url, 'GET', `/iam/v1/groups?uidp.children_of=${A_TEAM}`, { token: DEV_TOKEN });
    // the expected order, computed here from v1 data: name, then uid
    expectedByName = (v1.body.items as { id: string; name: string }[])
      .sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1))
      .map((g) => g.id);
    expect(expectedByName).toHaveLength(GROUPS + 1);
  });
  afterAll(() => env.close());

  it('the envelope: plural key, totalCount as a string, skipped, an empty token on the last page', async () => {
    const first = await page(`${bulkQuery}&page_size=200`);
    expect(first.items).toHaveLength(200);
    expect(first.total).toBe(String(GROUPS + 1));
    expect(first.skipped).toBe(0);
    const last = await page(`${bulkQuery}&page_size=200&page_token=${first.next}`);
    expect(last.items).toHaveLength(GROUPS + 1 - 200);
    expect(last.next).toBe('');
  });

  it.each([1, 7, 50, 200])('a full walk at page_size %i returns each item exactly once, in order, both ways', async (size) => {
    expect(await walk(`${bulkQuery}&order_by=name`, size)).toEqual(expectedByName);
    expect(await walk(`${bulkQuery}&order_by=name%20desc`, size)).toEqual([...expectedByName].reverse());
  });

  it('the default order is uid asc; camel and snake spellings are the same parameter', async () => {
    const byUid = [...expectedByName].sort();
    expect(await walk(bulkQuery, 50)).toEqual(byUid);
    const camel = await page(`uidp.childrenOf=${A_TEAM}&pageSize=3&orderBy=uid%20desc`);
    expect(camel.items.map((g) => g.uid)).toEqual([...byUid].reverse().slice(0, 3));
  });

  it('page_size: absent or 0 → 50, above 200 → 200, negative or not a number → INVALID_ARGUMENT naming it', async () => {
    expect((await page(bulkQuery)).items).toHaveLength(50);
    expect((await page(`${bulkQuery}&page_size=0`)).items).toHaveLength(50);
    const capped = await page(`${bulkQuery}&page_size=5000`);
    expect(capped.items).toHaveLength(200);
    expect(capped.next).not.toBe('');
    for (const bad of ['-1', 'ten']) {
      const res = await call(env.proxy.url, 'GET', `/iam/v2beta1/groups?page_size=${bad}`, { token: DEV_TOKEN });
      expect(res.status).toBe(400);
      expect(res.body.details[1].fieldViolations[0].field).toBe('page_size');
    }
  });

  it('skip: page_size=5&skip=10 starts at the 11th; skipped echoes; it combines with a cursor', async () => {
    const p = await page(`${bulkQuery}&order_by=name&page_size=5&skip=10`);
    expect(p.items.map((g) => g.uid)).toEqual(expectedByName.slice(10, 15));
    expect(p.skipped).toBe(10);
    expect(p.total).toBe(String(GROUPS + 1));
    const next = await page(`${bulkQuery}&order_by=name&page_size=5&skip=3&page_token=${p.next}`);
    expect(next.items.map((g) => g.uid)).toEqual(expectedByName.slice(18, 23));
    const beyond = await page(`${bulkQuery}&page_size=5&skip=1000`);
    expect(beyond.items).toEqual([]);
    expect(beyond.next).toBe('');
    const negative = await call(env.proxy.url, 'GET', '/iam/v2beta1/groups?skip=-1', { token: DEV_TOKEN });
    expect(negative.body).toEqual(
      aipError(3, 'Invalid argument: skip: skip must not be negative', 'INVALID_ARGUMENT', 'iam.chainguard.dev', [
        badRequest([{ field: 'skip', description: 'skip must not be negative' }]),
      ]),
    );
  });

  it('order_by: several fields, unknown field → INVALID_ARGUMENT naming order_by', async () => {
    // name desc, then uid asc: the uid tie-break does not follow the name's direction
    const p = await page(`${bulkQuery}&order_by=name%20desc,uid%20asc&page_size=6`);
    const items = p.items.map((g) => ({ uid: g.uid, name: g.name ?? '' }));
    const expected = [...items].sort((a, b) => (a.name === b.name ? (a.uid < b.uid ? -1 : 1) : a.name < b.name ? 1 : -1));
    expect(items).toEqual(expected);
    expect(items[0]?.name).toBe('sub');
    expect(items.slice(1).every((g) => g.name === 'g-39')).toBe(true);
    const bad = await call(env.proxy.url, 'GET', '/iam/v2beta1/groups?order_by=colour', { token: DEV_TOKEN });
    expect(bad.status).toBe(400);
    expect(bad.body.details[1].fieldViolations).toEqual([{ field: 'order_by', description: expect.stringMatching(/^cannot sort by "colour"/) }]);
    expect((await call(env.proxy.url, 'GET', '/iam/v2beta1/roleBindings?order_by=name', { token: DEV_TOKEN })).status).toBe(400);
  });

  it('page_token: tampered, another caller, changed filters or order_by → INVALID_ARGUMENT naming page_token; page_size may change', async () => {
    const first = await page(`uidp.descendants_of=${A}&page_size=3`, TOKENS.alice);
    expect(first.next).not.toBe('');
    const resized = await page(`uidp.descendants_of=${A}&page_size=10&page_token=${first.next}`, TOKENS.alice);
    expect(resized.status).toBe(200);
    const tampered = first.next.slice(0, 20) + (first.next[20] === 'x' ? 'y' : 'x') + first.next.slice(21);
    const cases: [string, string][] = [
      [`uidp.descendants_of=${A}&page_token=${tampered}`, TOKENS.alice],
      [`uidp.descendants_of=${A}&page_token=${first.next}`, TOKENS.carol],
      [`uidp.descendants_of=${A_TEAM}&page_token=${first.next}`, TOKENS.alice],
      [`uidp.descendants_of=${A}&order_by=name&page_token=${first.next}`, TOKENS.alice],
      ['page_token=not-a-token', TOKENS.alice],
    ];
    for (const [query, token] of cases) {
      const res = await call(env.proxy.url, 'GET', `/iam/v2beta1/groups?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(res.body.details[1].fieldViolations[0].field, query).toBe('page_token');
    }
    // the same token used on another resource
    expect((await call(env.proxy.url, 'GET', `/iam/v2beta1/roles?page_token=${first.next}`, { token: TOKENS.alice })).status).toBe(400);
  });

  it("a page token belongs to the caller, not to its spelling of the scheme: issued to 'bearer x', it continues for 'Bearer  x'", async () => {
    const url = `/iam/v2beta1/groups?uidp.descendants_of=${A}&page_size=3`;
    const first = await call(env.proxy.url, 'GET', url, { headers: { authorization: `bearer ${TOKENS.alice}` } });
    expect(first.status).toBe(200);
    const next = await call(env.proxy.url, 'GET', `${url}&page_token=${first.body.nextPageToken}`, { headers: { authorization: `Bearer  ${TOKENS.alice}` } });
    expect(next.status).toBe(200);
    expect(next.body.groups[0].uid).not.toBe(first.body.groups[0].uid);
  });

  it('page_token and pageToken name one parameter: either is read, the same value twice is fine, two different values are a 400', async () => {
    const first = await page(`uidp.descendants_of=${A}&page_size=3`, TOKENS.alice);
    const second = await page(`uidp.descendants_of=${A}&page_size=3&page_token=${first.next}`, TOKENS.alice);
    const camel = await page(`uidp.descendants_of=${A}&page_size=3&pageToken=${first.next}`, TOKENS.alice);
    const both = await page(`uidp.descendants_of=${A}&page_size=3&page_token=${first.next}&pageToken=${first.next}`, TOKENS.alice);
    // (each answer's next token is sealed afresh)
    const shown = (p: Page) => ({ status: p.status, items: p.items, total: p.total });
    expect(shown(camel)).toEqual(shown(second));
    expect(shown(both)).toEqual(shown(second));
    expect(second.items).not.toEqual(first.items);
    const third = second.next;
    for (const query of [
      `page_token=${first.next}&pageToken=${third}`,
      `pageToken=${third}&page_token=${first.next}`,
      `page_token=${first.next}&page_token=${third}`,
    ]) {
      const res = await call(env.proxy.url, 'GET', `/iam/v2beta1/groups?uidp.descendants_of=${A}&page_size=3&${query}`, { token: TOKENS.alice });
      expect(res.status, query).toBe(400);
      expect(res.body.details[1].fieldViolations[0].field, query).toBe('page_token');
    }
  });

  it('a walk costs one full v1 list call per cache window and one small re-check per further page; identical concurrent lists share one call', async () => {
    await resetStats();
    const seen = await walk(`${bulkQuery}&order_by=name`, 7, TOKENS.alice);
    const pages = Math.ceil(seen.length / 7);
    expect(pages).toBeGreaterThan(5);
    expect((await v1Stats()).requests).toEqual({ 'GET /iam/v1/groups': 1 + (pages - 1) });
    await resetStats();
    // v1 answers slowly, so all ten requests are certain to arrive while the one fetch runs
    await call(env.h.url, 'POST', '/__emulator/faults', { token: DEV_TOKEN, body: { rules: [{ prefix: '/iam/v1/groups', delayMs: 300 }] } });
    const query = `uidp.descendants_of=${A}&order_by=name%20desc&page_size=2`;
    const results = await Promise.all(Array.from({ length: 10 }, () => page(query, TOKENS.carol)));
    await call(env.h.url, 'DELETE', '/__emulator/faults', { token: DEV_TOKEN });
    expect(new Set(results.map((r) => JSON.stringify(r.items))).size).toBe(1);
    expect((await v1Stats()).total).toBe(1);
  });

  it('a cached list never serves another caller', async () => {
    const alice = await page(`uidp.descendants_of=${A}&page_size=500`, TOKENS.alice);
    const bob = await page(`uidp.descendants_of=${A}&page_size=500`, TOKENS.bob);
    expect(alice.items.length).toBeGreaterThan(100);
    expect(bob.items).toEqual([]);
    expect(bob.total).toBe('0');
  });

  it("a write through the proxy shows in the writer's next list", async () => {
    const before = await page(`uidp.children_of=${B}&page_size=500`);
    const created = await call(env.proxy.url, 'POST', `/iam/v2beta1/groups/${B}`, { token: DEV_TOKEN, body: { name: 'fresh' } });
    const after = await page(`uidp.children_of=${B}&page_size=500`);
    expect(after.items.map((g) => g.uid)).toEqual([...before.items.map((g) => g.uid), created.body.uid].sort());
  });
});

describe('v2 lists: inserts and deletes during a walk', () => {
  it('no duplicates and no misses of items that existed throughout', async () => {
    const env = await startProxyOnEmulator({ LIST_CACHE_TTL_MS: '0' }, undefined, { seed: seed() });
    try {
      const seen: string[] = [];
      const original = ((await call(env.h.url, 'GET', `/iam/v1/groups?uidp.children_of=${A_TEAM}`, { token: DEV_TOKEN })).body.items as { id: string }[]).map(
        (g) => g.id,
      );
      const deleted = new Set<string>();
      let next = '';
      for (let i = 0; i < 100; i += 1) {
        const res = await call(
          env.proxy.url,
          'GET',
          `/iam/v2beta1/groups?uidp.children_of=${A_TEAM}&order_by=name&page_size=10${next ? `&page_token=${next}` : ''}`,
          { token: DEV_TOKEN },
        );
        seen.push(...(res.body.groups as { uid: string }[]).map((g) => g.uid));
        next = res.body.nextPageToken;
        if (next === '') break;
        // between pages: add two groups (one sorting early, one late) and delete one not yet seen and one seen
        await call(env.h.url, 'POST', `/iam/v1/groups/${A_TEAM}`, { token: DEV_TOKEN, body: { name: `a-early-${i}` } });
        await call(env.h.url, 'POST', `/iam/v1/groups/${A_TEAM}`, { token: DEV_TOKEN, body: { name: `z-late-${i}` } });
        const unseen = original.find((id) => !seen.includes(id) && !deleted.has(id) && id !== original.at(-1));
        const gone = seen.find((id) => !deleted.has(id));
        for (const id of [unseen, gone]) {
          if (id === undefined) continue;
          await call(env.h.url, 'DELETE', `/iam/v1/groups/${id}`, { token: DEV_TOKEN });
          deleted.add(id);
        }
      }
      expect(new Set(seen).size).toBe(seen.length);
      const throughout = original.filter((id) => !deleted.has(id));
      expect(throughout.filter((id) => !seen.includes(id))).toEqual([]);
    } finally {
      await env.close();
    }
  });
});

describe('v2 lists: filters mean the same whether v1 or the proxy applies them', () => {
  let env: ProxyOnEmulator;
  // the emulator's clock, moved by the tests (no sleeps to separate timestamps)
  let clock = Date.now();
  const uids = async (path: string, key: string, token = DEV_TOKEN) => {
    const res = await call(env.proxy.url, 'GET', path, { token });
    expect(res.status, path).toBe(200);
    return (res.body[key] as { uid: string }[]).map((x) => x.uid).sort();
  };
  beforeAll(async () => {
    env = await startProxyOnEmulator({}, undefined, { now: () => clock });
  });
  afterAll(() => env.close());

  it('groups (v1: name, uidp) and identities (proxy: name, relationship_type)', async () => {
    expect(await uids(`/iam/v2beta1/groups?uidp.descendants_of=${A}&name=team`, 'groups')).toEqual([A_TEAM]);
    expect(await uids(`/iam/v2beta1/identities?uidp.descendants_of=${A}&name=carol`, 'identities')).toEqual([CAROL]);
    expect(await uids('/iam/v2beta1/identities?relationship_type=RELATIONSHIP_TYPE_SERVICE_PRINCIPAL', 'identities')).toHaveLength(1);
    expect(await uids(`/iam/v2beta1/identities?uidp.descendants_of=${A}&relationship_type=RELATIONSHIP_TYPE_CLAIM_MATCH`, 'identities')).toEqual(
      [ALICE, CAROL].sort(),
    );
    expect((await call(env.proxy.url, 'GET', '/iam/v2beta1/identities?relationship_type=NOPE', { token: DEV_TOKEN })).status).toBe(400);
  });

  it('role bindings: identity and role by the proxy, group as v1 children_of', async () => {
    expect(await uids(`/iam/v2beta1/roleBindings?identity=${CAROL}`, 'roleBindings')).toEqual([childUid(A_TEAM, 'rb-carol')]);
    expect(await uids(`/iam/v2beta1/roleBindings?group=${A}`, 'roleBindings')).toEqual([childUid(A, 'rb-alice')]);
    const owner = (await call(env.h.url, 'GET', '/iam/v1/roles?name=owner', { token: DEV_TOKEN })).body.items[0].id;
    expect(await uids(`/iam/v2beta1/roleBindings?role=${owner}`, 'roleBindings')).toEqual([childUid(A, 'rb-alice')]);
    expect(await uids(`/iam/v2beta1/roleBindings?role=${CUSTOM_ROLE_A}`, 'roleBindings')).toEqual([]);
  });

  it('tags: include_* defaults hide referrers, dated and epoch tags; digest and updated_since pass to v1', async () => {
    const names = async (q: string) =>
      ((await call(env.proxy.url, 'GET', `/registry/v2beta1/tags?uidp.children_of=${REPO_A}&${q}`, { token: DEV_TOKEN })).body.tags as { name: string }[])
        .map((t) => t.name)
        .sort();
    expect(await names('')).toEqual(['latest']);
    expect(await names('include_referrers=true&include_dates=true&include_epochs=true')).toEqual(['1.0-20260101', '1.0-r2', 'latest', 'sha256-abc.sig']);
    expect(await names('includeDates=true')).toEqual(['1.0-20260101', 'latest']);
    expect(await names('digest=sha256:aaa')).toEqual(['latest']);
    expect(await names('include_dates=true&include_epochs=true&updated_since=2026-05-03T00:00:00Z')).toEqual(['1.0-20260101', '1.0-r2']);
  });

  it('advisories: v1 filters renamed, review states converted, query applied by the proxy', async () => {
    const adv = (n: string) => childUid(A, `adv-${n}`);
    expect(await uids(`/vulnerabilities/v2beta1/advisories?uidp.children_of=${A}&artifact_names=zlib&artifact_names=curl`, 'advisories')).toEqual(
      [adv('2'), adv('3')].sort(),
    );
    expect(await uids('/vulnerabilities/v2beta1/advisories?event_review_states=REVIEW_STATE_PENDING', 'advisories')).toEqual([adv('1')]);
    expect(await uids(`/vulnerabilities/v2beta1/advisories?uidp.children_of=${A}&query=GHSA`, 'advisories')).toEqual([adv('2')]);
    expect(await uids(`/vulnerabilities/v2beta1/advisories?uidp.children_of=${A}&query=LIBZ`, 'advisories')).toEqual([adv('2')]);
    const byUpdate = await call(env.proxy.url, 'GET', `/vulnerabilities/v2beta1/advisories?uidp.children_of=${A}&order_by=update_time%20desc`, {
      token: DEV_TOKEN,
    });
    expect((byUpdate.body.advisories as { uid: string }[]).map((a) => a.uid)).toEqual([adv('3'), adv('2'), adv('1')]);
  });

  it('account associations and group invites: uidp by the proxy, defaults group asc and created_at desc', async () => {
    await call(env.proxy.url, 'POST', `/iam/v2beta1/accountAssociations/${A_TEAM}`, { token: DEV_TOKEN, body: { name: 'team' } });
    await call(env.proxy.url, 'POST', `/iam/v2beta1/accountAssociations/${A}`, { token: DEV_TOKEN, body: { name: 'root' } });
    await call(env.proxy.url, 'POST', `/iam/v2beta1/accountAssociations/${B}`, { token: DEV_TOKEN, body: { name: 'other' } });
    expect(await uids(`/iam/v2beta1/accountAssociations?uidp.descendants_of=${A}`, 'accountAssociations')).toEqual([A_TEAM]);
    expect(await uids(`/iam/v2beta1/accountAssociations?uidp.children_of=${A}`, 'accountAssociations')).toEqual([A_TEAM]);
    expect(await uids('/iam/v2beta1/accountAssociations?name=root', 'accountAssociations')).toEqual([A]);
    const all = await call(env.proxy.url, 'GET', '/iam/v2beta1/accountAssociations', { token: DEV_TOKEN });
    expect((all.body.accountAssociations as { uid: string }[]).map((a) => a.uid)).toEqual([A, A_TEAM, B].sort());

    const viewer = (await call(env.h.url, 'GET', '/iam/v1/roles?name=viewer', { token: DEV_TOKEN })).body.items[0].id;
    const first = await call(env.proxy.url, 'POST', `/iam/v2beta1/groupInvites/${A}`, { token: DEV_TOKEN, body: { roleUid: viewer, ttl: '60s' } });
    clock += 1_000;
    const second = await call(env.proxy.url, 'POST', `/iam/v2beta1/groupInvites/${A_TEAM}`, { token: DEV_TOKEN, body: { roleUid: viewer, ttl: '60s' } });
    const invites = await call(env.proxy.url, 'GET', `/iam/v2beta1/groupInvites?uidp.descendants_of=${A}`, { token: DEV_TOKEN });
    expect((invites.body.groupInvites as { uid: string }[]).map((i) => i.uid)).toEqual([second.body.uid, first.body.uid]);
    expect(await uids(`/iam/v2beta1/groupInvites?uidp.children_of=${A}`, 'groupInvites')).toEqual([first.body.uid]);
    expect(await uids(`/iam/v2beta1/groupInvites?key_id=${second.body.keyId}`, 'groupInvites')).toEqual([second.body.uid]);
  });
});

describe('v2 lists: every resource walks page by page like the others', () => {
  let env: ProxyOnEmulator;
  beforeAll(async () => {
    env = await startProxyOnEmulator();
    const viewer = (await call(env.h.url, 'GET', '/iam/v1/roles?name=viewer', { token: DEV_TOKEN })).body.items[0].id;
    for (const group of [A, A_TEAM, B]) {
      await call(env.proxy.url, 'POST', `/iam/v2beta1/accountAssociations/${group}`, { token: DEV_TOKEN, body: { name: `aa-${group.slice(0, 4)}` } });
      await call(env.proxy.url, 'POST', `/iam/v2beta1/groupInvites/${group}`, { token: DEV_TOKEN, body: { roleUid: viewer, ttl: '60s' } });
      await call(env.proxy.url, 'POST', `/iam/v2beta1/identityProviders/${group}`, {
        token: DEV_TOKEN,
        body: { name: 'sso', defaultRole: viewer, oidc: { issuer: 'https://i', clientId: 'c', clientSecret: 's' } },
      });
    }
  });
  afterAll(() => env.close());

  it.each([
    ['/iam/v2beta1', 'groups'],
    ['/iam/v2beta1', 'identities'],
    ['/iam/v2beta1', 'roles'],
    ['/iam/v2beta1', 'roleBindings'],
    ['/iam/v2beta1', 'identityProviders'],
    ['/iam/v2beta1', 'accountAssociations'],
    ['/iam/v2beta1', 'groupInvites'],
    ['/registry/v2beta1', 'repos'],
    ['/registry/v2beta1', 'tags'],
    ['/vulnerabilities/v2beta1', 'advisories'],
  ])('%s/%s: a walk at page_size=1 returns the one-page answer, item by item, both ways', async (prefix, resource) => {
    const all = await call(env.proxy.url, 'GET', `${prefix}/${resource}?page_size=200&order_by=uid&include_referrers=true`, { token: DEV_TOKEN });
    expect(all.status).toBe(200);
    const expected = (all.body[resource] as { uid: string }[]).map((x) => x.uid);
    expect(expected.length).toBeGreaterThan(1);
    expect(all.body.totalCount).toBe(String(expected.length));
    for (const dir of ['asc', 'desc']) {
      const seen: string[] = [];
      let next = '';
      for (let i = 0; i <= expected.length; i += 1) {
        const res = await call(
          env.proxy.url,
          'GET',
          `${prefix}/${resource}?page_size=1&order_by=uid%20${dir}&include_referrers=true${next ? `&page_token=${next}` : ''}`,
          { token: DEV_TOKEN },
        );
        seen.push(...(res.body[resource] as { uid: string }[]).map((x) => x.uid));
        next = res.body.nextPageToken;
        if (next === '') break;
      }
      expect(seen).toEqual(dir === 'asc' ? expected : [...expected].reverse());
    }
  });
});
