import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, A_TEAM, ALICE, BOB, CAROL } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness, v1Error } from '../support/emulator-harness.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

describe('emulator: /iam/v1/identities', () => {
  // the emulator's clock, moved by the tests (no sleeps to separate timestamps)
  let clock = Date.parse('2026-06-01T00:00:00Z');
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startHarness({ now: () => clock });
  });
  afterAll(() => h.close());

  it('lists identities with v1 names, timestamps as protojson writes them, and the one relationship', async () => {
    const res = await h.dev('GET', `/iam/v1/identities?id=${ALICE}`);
    expect(res.body).toEqual({
      items: [
        {
          id: ALICE,
          name: 'alice',
          description: 'owner of A',
          createdAt: '2026-01-02T03:04:05.678Z',
          updatedAt: '2026-01-03T00:00:00Z',
          claimMatch: { issuer: 'https://issuer.example', subject: 'alice' },
        },
      ],
    });
    const bob = await h.dev('GET', `/iam/v1/identities?id=${BOB}`);
    expect(bob.body.items[0]).toMatchObject({ servicePrincipal: 'INGESTER' });
    expect(bob.body.items[0].createdAt).toMatch(TIMESTAMP);
  });

  it('returns several at once with repeated uidp.ids, and filters by uidp', async () => {
    const res = await h.dev('GET', `/iam/v1/identities?uidp.ids=${ALICE}&uidp.ids=${BOB}`);
    expect((res.body.items as { id: string }[]).map((i) => i.id).sort()).toEqual([ALICE, BOB].sort());
    const team = await h.dev('GET', `/iam/v1/identities?uidp.descendants_of=${A_TEAM}`);
    expect((team.body.items as { id: string }[]).map((i) => i.id)).toEqual([CAROL]);
  });

  it('creates under a group, sets createdAt = updatedAt, and requires exactly one relationship', async () => {
    const body = { name: 'ci', description: 'pipeline', claimMatch: { issuer: 'https://gh.example', subject: 'repo:x' } };
    const res = await h.dev('POST', `/iam/v1/identities/${A}`, { body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...body, id: expect.stringMatching(new RegExp(`^${A}/[0-9a-f]{16}$`)) });
    expect(res.body.createdAt).toMatch(TIMESTAMP);
    expect(res.body.updatedAt).toBe(res.body.createdAt);
    expect(res.body).not.toHaveProperty('lastSeen');

    const none = await h.dev('POST', `/iam/v1/identities/${A}`, { body: { name: 'none' } });
    expect(none.status).toBe(400);
    expect(none.body).toEqual(v1Error(3, /exactly one of claimMatch/));
    const two = await h.dev('POST', `/iam/v1/identities/${A}`, {
      body: { name: 'two', servicePrincipal: 'COSIGNED', claimMatch: { issuer: 'i', subject: 's' } },
    });
    expect(two.body.code).toBe(3);
    const badEnum = await h.dev('POST', `/iam/v1/identities/${A}`, { body: { name: 'sp', servicePrincipal: 'NOPE' } });
    expect(badEnum.body.code).toBe(3);
  });

  it('PUT replaces the record: description resets, createdAt stays, updatedAt moves', async () => {
    const created = await h.dev('POST', `/iam/v1/identities/${A}`, { body: { name: 'to-replace', description: 'd', servicePrincipal: 'COSIGNED' } });
    clock += 1_000;
    const put = await h.dev('PUT', `/iam/v1/identities/${created.body.id}`, {
      body: { name: 'replaced', static: { issuer: 'https://s', subject: 'x', issuerKeys: 'k' } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      id: created.body.id,
      name: 'replaced',
      description: '',
      createdAt: created.body.createdAt,
      static: { issuer: 'https://s', subject: 'x', issuerKeys: 'k' },
    });
    expect(put.body).not.toHaveProperty('servicePrincipal');
    expect(Date.parse(put.body.updatedAt) - Date.parse(created.body.updatedAt)).toBe(1_000);
  });

  it('deleting an identity answers {} and removes its role bindings', async () => {
    const created = await h.dev('POST', `/iam/v1/identities/${A}`, { body: { name: 'short-lived', servicePrincipal: 'COSIGNED' } });
    const viewer = (await h.dev('GET', '/iam/v1/roles?name=viewer')).body.items[0].id;
    const rb = await h.dev('POST', `/iam/v1/rolebindings/${A}`, { body: { identity: created.body.id, role: viewer } });
    expect(rb.status).toBe(200);
    const del = await h.dev('DELETE', `/iam/v1/identities/${created.body.id}`);
    expect(del.body).toEqual({});
    expect((await h.dev('GET', `/iam/v1/rolebindings?id=${rb.body.id}`)).body.items).toEqual([]);
  });
});
