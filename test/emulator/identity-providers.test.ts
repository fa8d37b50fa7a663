import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness } from '../support/emulator-harness.js';

describe('emulator: /iam/v1/identityProviders', () => {
  let h: EmulatorHarness;
  let viewer: string;
  beforeAll(async () => {
    h = await startHarness();
    viewer = (await h.dev('GET', '/iam/v1/roles?name=viewer')).body.items[0].id;
  });
  afterAll(() => h.close());

  const oidc = { issuer: 'https://sso.example', clientId: 'cid', clientSecret: 's3cret', additionalScopes: ['email'] };

  it('never returns clientSecret, and keeps the stored one when a PUT sends it empty', async () => {
    const created = await h.dev('POST', `/iam/v1/identityProviders/${A}`, { body: { name: 'sso', defaultRole: viewer, oidc } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(new RegExp(`^${A}/[0-9a-f]{16}$`)),
      name: 'sso',
      description: '',
      defaultRole: viewer,
      oidc: {
        issuer: 'https://sso.example',
        clientId: 'cid',
        additionalScopes: ['email'],
        groupsClaim: '',
        correlationRule: 'CORRELATION_RULE_UNSPECIFIED',
        pkceEnabled: false,
      },
    });
    expect(JSON.stringify(created.body)).not.toContain('s3cret');
    const put = await h.dev('PUT', `/iam/v1/identityProviders/${created.body.id}`, {
      body: { name: 'sso2', defaultRole: viewer, oidc: { issuer: 'https://sso.example', clientId: 'cid2', clientSecret: '' } },
    });
    expect(put.body.oidc).toMatchObject({ clientId: 'cid2', additionalScopes: [] });
    expect(put.body.oidc).not.toHaveProperty('clientSecret');
    const kept = h.emu.store.identityProviders.get(created.body.id);
    expect(kept?.oidc?.clientSecret).toBe('s3cret');
    await h.dev('PUT', `/iam/v1/identityProviders/${created.body.id}`, {
      body: { name: 'sso2', defaultRole: viewer, oidc: { ...oidc, clientSecret: 'rotated' } },
    });
    expect(h.emu.store.identityProviders.get(created.body.id)?.oidc?.clientSecret).toBe('rotated');
  });

  it('filters by name and id, and deletes with {}', async () => {
    const created = await h.dev('POST', `/iam/v1/identityProviders/${A}`, { body: { name: 'findme', defaultRole: viewer, oidc } });
    const byName = await h.dev('GET', '/iam/v1/identityProviders?name=findme');
    expect((byName.body.items as { id: string }[]).map((p) => p.id)).toEqual([created.body.id]);
    expect((await h.dev('DELETE', `/iam/v1/identityProviders/${created.body.id}`)).body).toEqual({});
    expect((await h.dev('GET', `/iam/v1/identityProviders?id=${created.body.id}`)).body.items).toEqual([]);
  });

  it('rejects a create without oidc and an unknown default role', async () => {
    expect((await h.dev('POST', `/iam/v1/identityProviders/${A}`, { body: { name: 'x', defaultRole: viewer } })).body.code).toBe(3);
    expect((await h.dev('POST', `/iam/v1/identityProviders/${A}`, { body: { name: 'x', defaultRole: `${A}/0000000000000000`, oidc } })).body.code).toBe(3);
  });
});
