import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, A_TEAM, B } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness, v1Error } from '../support/emulator-harness.js';

describe('emulator: /iam/v1/account_associations (keyed by group)', () => {
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('creates under the group in the path, has no id, and refuses a second one for the same group', async () => {
    const body = {
      name: 'accounts',
      description: 'd',
      amazon: { account: '123456789012' },
      github: { appInstallations: { '12345': { installations: [{ installationId: '99', name: 'org' }] } } },
    };
    const created = await h.dev('POST', `/iam/v1/account_associations/${A}`, { body });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ group: A, ...body });
    const again = await h.dev('POST', `/iam/v1/account_associations/${A}`, { body });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(6);
  });

  it('filters by group and name; there is no uidp filter', async () => {
    await h.dev('POST', `/iam/v1/account_associations/${A_TEAM}`, { body: { name: 'team-accounts', google: { projectId: 'p', projectNumber: '1' } } });
    const byGroup = await h.dev('GET', `/iam/v1/account_associations?group=${A_TEAM}`);
    expect(byGroup.body.items).toEqual([{ group: A_TEAM, name: 'team-accounts', description: '', google: { projectId: 'p', projectNumber: '1' } }]);
    const byName = await h.dev('GET', '/iam/v1/account_associations?name=accounts');
    expect((byName.body.items as { group: string }[]).map((a) => a.group)).toEqual([A]);
  });

  it('PUT replaces by group (providers left out are gone); DELETE answers {}; unknown group → 5', async () => {
    const put = await h.dev('PUT', `/iam/v1/account_associations/${A}`, { body: { name: 'renamed', azure: { tenantId: 't', clientIds: { c: 'x' } } } });
    expect(put.body).toEqual({ group: A, name: 'renamed', description: '', azure: { tenantId: 't', clientIds: { c: 'x' } } });
    expect((await h.dev('DELETE', `/iam/v1/account_associations/${A}`)).body).toEqual({});
    const missing = await h.dev('PUT', `/iam/v1/account_associations/${B}`, { body: { name: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(v1Error(5, /not found/));
  });
});
