import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, A_TEAM, A_TEAM_SUB, B, TOKENS } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness, v1Error } from '../support/emulator-harness.js';

const ROOT_UID = /^[0-9a-f]{40}$/;
const CHILD_OF = (parent: string) => new RegExp(`^${parent}/[0-9a-f]{16}$`);

describe('emulator: /iam/v1/groups', () => {
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('lists v1 groups as {items} with exactly the v1 fields and no timestamps', async () => {
    const res = await h.dev('GET', `/iam/v1/groups?id=${A}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        {
          id: A,
          name: 'tenant-a',
          description: 'Tenant A',
          resourceLimits: { clusters: 1, idps: 1, repositories: 10 },
          verified: false,
        },
      ],
    });
  });

  it('filters by id, name, uidp.descendants_of and uidp.children_of', async () => {
    const ids = async (q: string) => ((await h.dev('GET', `/iam/v1/groups?${q}`)).body.items as { id: string }[]).map((g) => g.id).sort();
    expect(await ids(`uidp.descendants_of=${A}`)).toEqual([A_TEAM, A_TEAM_SUB].sort());
    expect(await ids(`uidp.children_of=${A}`)).toEqual([A_TEAM]);
    expect(await ids(`uidp.childrenOf=${A_TEAM}`)).toEqual([A_TEAM_SUB]);
    expect(await ids('name=team')).toEqual([A_TEAM]);
    expect(await ids(`id=${B}`)).toEqual([B]);
    expect(await ids(`uidp.ids=${A}&uidp.ids=${B}`)).toEqual([A, B].sort());
    expect(await ids('name=nothing-like-this')).toEqual([]);
  });

  it("a list by id (looked up, not scanned) still applies the caller's access and every other filter", async () => {
    const ids = async (q: string, token: string) => ((await h.call('GET', `/iam/v1/groups?${q}`, { token })).body.items as { id: string }[]).map((g) => g.id);
    expect(await ids(`id=${A_TEAM}`, TOKENS.alice)).toEqual([A_TEAM]);
    expect(await ids(`id=${B}`, TOKENS.alice)).toEqual([]);
    expect(await ids(`id=${A_TEAM}&name=nothing-like-this`, TOKENS.alice)).toEqual([]);
    expect(await ids(`id=${A_TEAM}&uidp.children_of=${B}`, TOKENS.alice)).toEqual([]);
    expect(await ids(`id=${A}/0000000000000000`, TOKENS.alice)).toEqual([]);
    // an empty id is no filter, as before
    expect((await ids(`id=&uidp.children_of=${A}`, TOKENS.alice)).sort()).toEqual([A_TEAM]);
  });

  it('creates a root group (owned by its creator) and a child under a parent in the path', async () => {
    const root = await h.call('POST', '/iam/v1/groups/', { token: TOKENS.bob, body: { name: 'bob-org', description: 'mine' } });
    expect(root.status).toBe(200);
    expect(root.body).toEqual({ id: expect.stringMatching(ROOT_UID), name: 'bob-org', description: 'mine', resourceLimits: {}, verified: false });
    // the creator is now its owner: it may create below it and list it
    const child = await h.call('POST', `/iam/v1/groups/${root.body.id}`, { token: TOKENS.bob, body: { name: 'child' } });
    expect(child.status).toBe(200);
    expect(child.body.id).toMatch(CHILD_OF(root.body.id));
    const seen = await h.call('GET', `/iam/v1/groups?id=${root.body.id}`, { token: TOKENS.bob });
    expect(seen.body.items).toHaveLength(1);
  });

  it('rejects a bad name with code 3 and the SDK rule text', async () => {
    for (const body of [{}, { name: '' }, { name: 'Upper' }, { name: 'slash/no' }]) {
      const res = await h.dev('POST', `/iam/v1/groups/${A}`, { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(v1Error(3, 'name must match "^[a-z0-9 ._-]{1,}$"'));
    }
  });

  it('rejects wrongly typed fields and malformed JSON with code 3', async () => {
    const typed = await h.dev('POST', `/iam/v1/groups/${A}`, { body: { name: 7 } });
    expect(typed.status).toBe(400);
    expect(typed.body.code).toBe(3);
    const malformed = await h.dev('POST', `/iam/v1/groups/${A}`, { raw: '{"name": "x"' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(v1Error(3, /JSON/));
    const proto = await h.dev('POST', `/iam/v1/groups/${A}`, { raw: '{"name":"x","__proto__":{"polluted":true}}' });
    expect(proto.status).toBe(400);
    expect(proto.body.code).toBe(3);
  });

  it('PUT replaces the whole group: omitted fields reset to zero values, the path id wins', async () => {
    const created = await h.dev('POST', `/iam/v1/groups/${A}`, {
      body: { name: 'replace-me', description: 'old', resourceLimits: { repositories: 5 }, verified: true },
    });
    const put = await h.dev('PUT', `/iam/v1/groups/${created.body.id}`, { body: { id: 'ignored', name: 'replaced' } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ id: created.body.id, name: 'replaced', description: '', resourceLimits: {}, verified: false });
    const read = await h.dev('GET', `/iam/v1/groups?id=${created.body.id}`);
    expect(read.body.items[0]).toEqual(put.body);
  });

  it('answers 5 for PUT and DELETE of an unknown id', async () => {
    const missing = `${A}/0000000000000000`;
    const put = await h.dev('PUT', `/iam/v1/groups/${missing}`, { body: { name: 'x' } });
    expect(put.status).toBe(404);
    expect(put.body).toEqual(v1Error(5, /not found/));
    const del = await h.dev('DELETE', `/iam/v1/groups/${missing}`);
    expect(del.status).toBe(404);
    expect(del.body.code).toBe(5);
  });

  it('refuses to delete a group with child repos (9) or child groups (9), and deletes an empty one with {}', async () => {
    const withRepo = await h.dev('POST', `/iam/v1/groups/${B}`, { body: { name: 'has-repo' } });
    await h.dev('POST', `/registry/v1/repos/${withRepo.body.id}`, { body: { name: 'r' } });
    const repoRefusal = await h.dev('DELETE', `/iam/v1/groups/${withRepo.body.id}`);
    expect(repoRefusal.status).toBe(400);
    expect(repoRefusal.body).toEqual(v1Error(9, 'cannot delete group with child repos'));

    const childRefusal = await h.dev('DELETE', `/iam/v1/groups/${A_TEAM}`);
    expect(childRefusal.status).toBe(400);
    expect(childRefusal.body).toEqual(v1Error(9, 'cannot delete group with child groups'));

    const empty = await h.dev('POST', `/iam/v1/groups/${B}`, { body: { name: 'empty' } });
    const identity = await h.dev('POST', `/iam/v1/identities/${empty.body.id}`, { body: { name: 'inside', servicePrincipal: 'COSIGNED' } });
    const del = await h.dev('DELETE', `/iam/v1/groups/${empty.body.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({});
    expect((await h.dev('GET', `/iam/v1/groups?id=${empty.body.id}`)).body.items).toEqual([]);
    // what lived in the group went with it
    expect((await h.dev('GET', `/iam/v1/identities?id=${identity.body.id}`)).body.items).toEqual([]);
  });

  it('creating under a missing parent answers 5', async () => {
    const res = await h.dev('POST', `/iam/v1/groups/${A}/1111111111111111`, { body: { name: 'orphan' } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(5);
  });
});
