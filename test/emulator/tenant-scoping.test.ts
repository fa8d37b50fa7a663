import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, A_TEAM, A_TEAM_SUB, ALICE, B, BOB, CAROL, REPO_A, REPO_B, TOKENS, childUid } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness, v1Error } from '../support/emulator-harness.js';

const idsOf = (body: { items: { id?: string; group?: string }[] }) => body.items.map((i) => i.id ?? i.group).sort();

describe('emulator: authentication and scoping between two tenants', () => {
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('answers 16 without a token, with an unknown token, or with a non-bearer scheme', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: `Basic ${TOKENS.alice}` }]) {
      const res = await h.call('GET', '/iam/v1/groups', { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(v1Error(16, /token/));
    }
  });

  it('lists leave out what the caller may not see', async () => {
    expect(idsOf((await h.call('GET', '/iam/v1/groups', { token: TOKENS.alice })).body)).toEqual([A, A_TEAM, A_TEAM_SUB].sort());
    expect(idsOf((await h.call('GET', '/iam/v1/groups', { token: TOKENS.bob })).body)).toEqual([B]);
    // a binding on A/team reaches the team and what is below it, not the tenant root
    expect(idsOf((await h.call('GET', '/iam/v1/groups', { token: TOKENS.carol })).body)).toEqual([A_TEAM, A_TEAM_SUB].sort());
    expect(idsOf((await h.call('GET', '/iam/v1/identities', { token: TOKENS.alice })).body)).toEqual([ALICE, CAROL].sort());
    expect(idsOf((await h.call('GET', '/iam/v1/identities', { token: TOKENS.bob })).body)).toEqual([BOB]);
    expect(idsOf((await h.call('GET', '/registry/v1/repos', { token: TOKENS.bob })).body)).toEqual([REPO_B]);
    expect(idsOf((await h.call('GET', '/registry/v1/repos', { token: TOKENS.carol })).body)).toEqual([]);
    expect(idsOf((await h.call('GET', '/iam/v1/rolebindings', { token: TOKENS.bob })).body)).toEqual([childUid(B, 'rb-bob')]);
    // asking for another tenant by id finds nothing rather than leaking it
    expect((await h.call('GET', `/iam/v1/groups?id=${A}`, { token: TOKENS.bob })).body.items).toEqual([]);
  });

  it('writes on what the caller may not touch answer 7', async () => {
    const intoA = await h.call('POST', `/iam/v1/groups/${A}`, { token: TOKENS.bob, body: { name: 'intruder' } });
    expect(intoA.status).toBe(403);
    expect(intoA.body).toEqual(v1Error(7, /permission denied/));
    expect((await h.call('PUT', `/iam/v1/groups/${A}`, { token: TOKENS.bob, body: { name: 'x' } })).status).toBe(403);
    expect((await h.call('DELETE', `/registry/v1/repos/${REPO_A}`, { token: TOKENS.bob })).status).toBe(403);
    // a viewer may read but not write in its own scope
    expect((await h.call('POST', `/iam/v1/groups/${A_TEAM}`, { token: TOKENS.carol, body: { name: 'x' } })).status).toBe(403);
    expect((await h.call('POST', `/iam/v1/groups/${B}`, { token: TOKENS.bob, body: { name: 'x' } })).status).toBe(403);
  });

  it('checks permission before existence: another tenant cannot tell a uid that exists from one that does not', async () => {
    const absentGroup = childUid(A, 'never-made');
    const absentRepo = childUid(A, 'no-repo');
    for (const [method, existing, absent] of [
      ['DELETE', `/iam/v1/groups/${A_TEAM}`, `/iam/v1/groups/${absentGroup}`],
      ['DELETE', `/registry/v1/repos/${REPO_A}`, `/registry/v1/repos/${absentRepo}`],
      ['PUT', `/iam/v1/groups/${A_TEAM}`, `/iam/v1/groups/${absentGroup}`],
      ['POST', `/iam/v1/groups/${A_TEAM}`, `/iam/v1/groups/${absentGroup}`],
      ['POST', `/iam/v1/identities/${A_TEAM}`, `/iam/v1/identities/${absentGroup}`],
    ] as const) {
      const body = method === 'DELETE' ? undefined : { name: 'x', claimMatch: { issuer: 'i', subject: 's' } };
      const a = await h.call(method, existing, { token: TOKENS.bob, ...(body ? { body } : {}) });
      const b = await h.call(method, absent, { token: TOKENS.bob, ...(body ? { body } : {}) });
      expect([a.status, b.status], `${method} ${existing}`).toEqual([403, 403]);
      expect(a.body.code).toBe(b.body.code);
    }
  });

  it('a binding may only name an identity the caller can see', async () => {
    // bob (viewer of B) cannot bind; the dev superuser can; alice (owner of A) cannot bind B's identity
    const foreign = await h.call('POST', `/iam/v1/rolebindings/${A}`, { token: TOKENS.alice, body: { identity: BOB, role: childUid(A, 'role-publisher') } });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual(v1Error(3, `identity "${BOB}" not found`));
    const own = await h.call('POST', `/iam/v1/rolebindings/${A}`, { token: TOKENS.alice, body: { identity: CAROL, role: childUid(A, 'role-publisher') } });
    expect(own.status).toBe(200);
    // the binding list never shows another tenant's issuer and subject
    expect((await h.call('GET', '/iam/v1/rolebindings', { token: TOKENS.alice })).body.items.some((b: { identity: string }) => b.identity === BOB)).toBe(false);
  });

  it('the owner of a tenant may write anywhere below it', async () => {
    const res = await h.call('POST', `/iam/v1/groups/${A_TEAM}`, { token: TOKENS.alice, body: { name: 'by-alice' } });
    expect(res.status).toBe(200);
    expect((await h.call('DELETE', `/iam/v1/groups/${res.body.id}`, { token: TOKENS.alice })).body).toEqual({});
  });
});
