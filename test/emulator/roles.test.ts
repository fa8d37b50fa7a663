import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, CUSTOM_ROLE_A, TOKENS } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness, v1Error } from '../support/emulator-harness.js';

describe('emulator: /iam/v1/roles', () => {
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('has built-in viewer, editor and owner roles at the root with v1 capability names, readable by anyone', async () => {
    const res = await h.call('GET', '/iam/v1/roles?parent=/', { token: TOKENS.bob });
    type Role = { id: string; name: string; description: string; capabilities: string[] };
    const byName: Record<string, Role> = Object.fromEntries((res.body.items as Role[]).map((r) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual(['editor', 'owner', 'viewer']);
    for (const role of Object.values(byName)) {
      expect(role.id).toMatch(/^[0-9a-f]{40}$/);
      expect(Object.keys(role).sort()).toEqual(['capabilities', 'description', 'id', 'name']);
    }
    expect(byName.viewer).toMatchObject({ description: 'Viewer Role (built-in)' });
    expect(byName.viewer?.capabilities).toEqual(expect.arrayContaining(['groups.list', 'repo.list', 'tag.list', 'advisories.list']));
    expect(byName.viewer?.capabilities).not.toContain('groups.create');
    expect(byName.owner?.capabilities).toEqual(
      expect.arrayContaining([
        'groups.create',
        'groups.update',
        'groups.delete',
        'identity.create',
        'roles.create',
        'role_bindings.create',
        'identity_providers.create',
        'account_associations.create',
        'group_invites.create',
        'group_invites.list',
        'group_invites.delete',
        'repo.create',
        'tag.create',
        'advisories.create',
      ]),
    );
  });

  it('filters by name, id and parent', async () => {
    const byName = await h.dev('GET', '/iam/v1/roles?name=publisher');
    expect(byName.body.items).toEqual([{ id: CUSTOM_ROLE_A, name: 'publisher', description: 'publishes', capabilities: ['repo.list', 'tag.create'] }]);
    const byParent = await h.dev('GET', `/iam/v1/roles?parent=${A}`);
    expect((byParent.body.items as { id: string }[]).map((r) => r.id)).toEqual([CUSTOM_ROLE_A]);
  });

  it('creates, replaces and deletes a custom role; capabilities are validated', async () => {
    const created = await h.dev('POST', `/iam/v1/roles/${A}`, { body: { name: 'auditor', capabilities: ['groups.list', 'repo.list'] } });
    expect(created.body).toEqual({
      id: expect.stringMatching(new RegExp(`^${A}/[0-9a-f]{16}$`)),
      name: 'auditor',
      description: '',
      capabilities: ['groups.list', 'repo.list'],
    });
    const unknown = await h.dev('POST', `/iam/v1/roles/${A}`, { body: { name: 'bad', capabilities: ['groups.fly'] } });
    expect(unknown.body).toEqual(v1Error(3, 'unknown capability "groups.fly"'));
    const put = await h.dev('PUT', `/iam/v1/roles/${created.body.id}`, { body: { name: 'auditor2', capabilities: ['tag.list'] } });
    expect(put.body).toEqual({ id: created.body.id, name: 'auditor2', description: '', capabilities: ['tag.list'] });
    expect((await h.dev('DELETE', `/iam/v1/roles/${created.body.id}`)).body).toEqual({});
  });

  it('refuses to change or delete built-in roles, and to delete a bound role', async () => {
    const viewer = (await h.dev('GET', '/iam/v1/roles?name=viewer')).body.items[0].id;
    expect((await h.dev('PUT', `/iam/v1/roles/${viewer}`, { body: { name: 'x', capabilities: ['repo.list'] } })).body.code).toBe(7);
    expect((await h.dev('DELETE', `/iam/v1/roles/${viewer}`)).body.code).toBe(7);
    const identity = (await h.dev('POST', `/iam/v1/identities/${A}`, { body: { name: 'p', servicePrincipal: 'COSIGNED' } })).body.id;
    await h.dev('POST', `/iam/v1/rolebindings/${A}`, { body: { identity, role: CUSTOM_ROLE_A } });
    const bound = await h.dev('DELETE', `/iam/v1/roles/${CUSTOM_ROLE_A}`);
    expect(bound.status).toBe(400);
    expect(bound.body).toEqual(v1Error(9, 'cannot delete role with role bindings'));
  });
});
