import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, A_TEAM } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness, v1Error } from '../support/emulator-harness.js';

describe('emulator: /iam/v1/group_invites', () => {
  let h: EmulatorHarness;
  let viewer: { id: string };
  beforeAll(async () => {
    h = await startHarness();
    viewer = (await h.dev('GET', '/iam/v1/roles?name=viewer')).body.items[0];
  });
  afterAll(() => h.close());

  it('create answers {id, expiration, keyId, role, code}; the list has email, createdAt, singleUse and no code', async () => {
    const before = Date.now();
    const created = await h.dev('POST', `/iam/v1/group_invites/${A}`, { body: { ttl: '3600s', role: viewer.id, email: 'x@example.com', singleUse: true } });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body)).toEqual(['id', 'expiration', 'keyId', 'role', 'code']);
    expect(created.body.role).toEqual(viewer);
    expect(created.body.code).toMatch(/^[\w-]{20,}$/);
    const expiresIn = Date.parse(created.body.expiration) - before;
    expect(expiresIn).toBeGreaterThan(3_590_000);
    expect(expiresIn).toBeLessThan(3_700_000);

    const listed = await h.dev('GET', `/iam/v1/group_invites?id=${created.body.id}`);
    expect(listed.body.items).toEqual([
      {
        id: created.body.id,
        expiration: created.body.expiration,
        keyId: created.body.keyId,
        role: viewer,
        email: 'x@example.com',
        createdAt: expect.stringMatching(/Z$/),
        singleUse: true,
      },
    ]);
  });

  it('filters by group, id and key_id', async () => {
    const inTeam = await h.dev('POST', `/iam/v1/group_invites/${A_TEAM}`, { body: { ttl: '60s', role: viewer.id } });
    const byGroup = await h.dev('GET', `/iam/v1/group_invites?group=${A_TEAM}`);
    expect((byGroup.body.items as { id: string }[]).map((i) => i.id)).toEqual([inTeam.body.id]);
    const byKey = await h.dev('GET', `/iam/v1/group_invites?key_id=${inTeam.body.keyId}`);
    expect((byKey.body.items as { id: string }[]).map((i) => i.id)).toEqual([inTeam.body.id]);
  });

  it('validates ttl and role; has no update route; deletes with {}', async () => {
    expect((await h.dev('POST', `/iam/v1/group_invites/${A}`, { body: { ttl: 'soon', role: viewer.id } })).body).toEqual(v1Error(3, /ttl/));
    expect((await h.dev('POST', `/iam/v1/group_invites/${A}`, { body: { ttl: '60s' } })).body).toEqual(v1Error(3, 'role is required'));
    const created = await h.dev('POST', `/iam/v1/group_invites/${A}`, { body: { ttl: '60s', role: viewer.id } });
    const put = await h.dev('PUT', `/iam/v1/group_invites/${created.body.id}`, { body: {} });
    expect(put.status).toBe(501);
    expect(put.body).toEqual(v1Error(12, 'Method Not Allowed'));
    expect((await h.dev('DELETE', `/iam/v1/group_invites/${created.body.id}`)).body).toEqual({});
  });
});
