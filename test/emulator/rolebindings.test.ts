import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, A_TEAM, ALICE, B, BOB, CAROL, CUSTOM_ROLE_A, childUid } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness, v1Error } from '../support/emulator-harness.js';

describe('emulator: /iam/v1/rolebindings', () => {
  let h: EmulatorHarness;
  let viewer: { id: string; name: string; description: string; capabilities: string[] };
  let owner: { id: string };
  beforeAll(async () => {
    h = await startHarness();
    viewer = (await h.dev('GET', '/iam/v1/roles?name=viewer')).body.items[0];
    owner = (await h.dev('GET', '/iam/v1/roles?name=owner')).body.items[0];
  });
  afterAll(() => h.close());

  it('list items are partly hydrated as v1 does it: full group and role, claim match, createdAt', async () => {
    const id = childUid(A_TEAM, 'rb-carol');
    const res = await h.dev('GET', `/iam/v1/rolebindings?id=${id}`);
    expect(res.body.items).toHaveLength(1);
    const item = res.body.items[0];
    expect(Object.keys(item)).toEqual(['id', 'group', 'identity', 'role', 'email', 'claimMatchIssuer', 'claimMatchSubject', 'createdAt', 'emailUnverified']);
    expect(item).toEqual({
      id,
      group: { id: A_TEAM, name: 'team', description: 'A team', resourceLimits: {}, verified: false },
      identity: CAROL,
      role: viewer,
      email: '',
      claimMatchIssuer: 'https://issuer.example',
      claimMatchSubject: 'carol',
      createdAt: expect.stringMatching(/Z$/),
      emailUnverified: '',
    });
    const seeded = await h.dev('GET', `/iam/v1/rolebindings?id=${childUid(A, 'rb-alice')}`);
    expect(seeded.body.items[0].createdAt).toBe('2026-01-04T00:00:00Z');
    // a non-claimMatch identity has empty claim fields
    const bob = await h.dev('GET', `/iam/v1/rolebindings?id=${childUid(B, 'rb-bob')}`);
    expect(bob.body.items[0]).toMatchObject({ identity: BOB, claimMatchIssuer: '', claimMatchSubject: '' });
  });

  it('filters by uidp', async () => {
    const res = await h.dev('GET', `/iam/v1/rolebindings?uidp.descendants_of=${A}`);
    expect((res.body.items as { id: string }[]).map((b) => b.id).sort()).toEqual([childUid(A, 'rb-alice'), childUid(A_TEAM, 'rb-carol')].sort());
  });

  it('create and PUT answer the flat shape; group is always the parent', async () => {
    const created = await h.dev('POST', `/iam/v1/rolebindings/${A}`, { body: { identity: CAROL, role: CUSTOM_ROLE_A, group: 'ignored' } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.stringMatching(new RegExp(`^${A}/[0-9a-f]{16}$`)), identity: CAROL, group: A, role: CUSTOM_ROLE_A });
    const put = await h.dev('PUT', `/iam/v1/rolebindings/${created.body.id}`, { body: { identity: ALICE, role: owner.id } });
    expect(put.body).toEqual({ id: created.body.id, identity: ALICE, group: A, role: owner.id });
    const listed = await h.dev('GET', `/iam/v1/rolebindings?id=${created.body.id}`);
    expect(listed.body.items[0]).toMatchObject({ identity: ALICE, role: { id: owner.id } });
    expect((await h.dev('DELETE', `/iam/v1/rolebindings/${created.body.id}`)).body).toEqual({});
  });

  it('validates the identity and the role: required, existing, and the role usable in the group', async () => {
    expect((await h.dev('POST', `/iam/v1/rolebindings/${A}`, { body: { role: viewer.id } })).body).toEqual(v1Error(3, 'identity is required'));
    expect((await h.dev('POST', `/iam/v1/rolebindings/${A}`, { body: { identity: ALICE } })).body).toEqual(v1Error(3, 'role is required'));
    expect((await h.dev('POST', `/iam/v1/rolebindings/${A}`, { body: { identity: `${A}/0000000000000000`, role: viewer.id } })).body.code).toBe(3);
    // tenant A's custom role is not usable in tenant B
    const foreign = await h.dev('POST', `/iam/v1/rolebindings/${B}`, { body: { identity: BOB, role: CUSTOM_ROLE_A } });
    expect(foreign.body).toEqual(v1Error(3, `role "${CUSTOM_ROLE_A}" not found`));
  });
});
