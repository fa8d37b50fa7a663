import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, A_TEAM, ALICE, B, BOB, CAROL, CUSTOM_ROLE_A, DEV_TOKEN, REPO_A, TOKENS, childUid } from '../support/fixtures.js';
import { type Answer, call } from '../support/emulator-harness.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { aipError, badRequest } from '../support/aip.js';
import { TIME_PATTERN } from '../support/matchers.js';

const MS = TIME_PATTERN;

describe('v2 resources through the proxy: Get, Create, Delete shapes', () => {
  let env: ProxyOnEmulator;
  let v2: (method: string, path: string, body?: unknown) => Promise<Answer>;
  let v1: (method: string, path: string, body?: unknown) => Promise<Answer>;
  let viewer: string;
  beforeAll(async () => {
    env = await startProxyOnEmulator();
    v2 = (method, path, body) => call(env.proxy.url, method, path, { token: DEV_TOKEN, ...(body === undefined ? {} : { body }) });
    v1 = (method, path, body) => call(env.h.url, method, path, { token: DEV_TOKEN, ...(body === undefined ? {} : { body }) });
    viewer = (await v1('GET', '/iam/v1/roles?name=viewer')).body.items[0].id;
  });
  afterAll(() => env.close());

  it('identities: create, get, delete with v2 names and 3-digit timestamps', async () => {
    const got = await v2('GET', `/iam/v2beta1/identities/${ALICE}`);
    expect(got.body).toEqual({
      uid: ALICE,
      name: 'alice',
      description: 'owner of A',
      createTime: '2026-01-02T03:04:05.678Z',
      updateTime: '2026-01-03T00:00:00.000Z',
      claimMatch: { issuer: 'https://issuer.example', subject: 'alice' },
    });
    expect((await v2('GET', `/iam/v2beta1/identities/${BOB}`)).body.servicePrincipal).toBe('SERVICE_PRINCIPAL_INGESTER');
    const created = await v2('POST', `/iam/v2beta1/identities/${A_TEAM}`, {
      name: 'ci',
      description: 'bot',
      claimMatch: { issuer: 'https://gh', subject: 'repo:x' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      uid: expect.stringMatching(new RegExp(`^${A_TEAM}/`)),
      name: 'ci',
      description: 'bot',
      createTime: expect.stringMatching(MS),
      updateTime: expect.stringMatching(MS),
      claimMatch: { issuer: 'https://gh', subject: 'repo:x' },
    });
    const sp = await v2('POST', `/iam/v2beta1/identities/${A_TEAM}`, { name: 'sp', service_principal: 'SERVICE_PRINCIPAL_COSIGNED' });
    expect(sp.body.servicePrincipal).toBe('SERVICE_PRINCIPAL_COSIGNED');
    expect((await v1('GET', `/iam/v1/identities?id=${sp.body.uid}`)).body.items[0].servicePrincipal).toBe('COSIGNED');
    const st = await v2('POST', `/iam/v2beta1/identities/${A_TEAM}`, {
      name: 'st',
      staticKeys: { issuer: 'https://s', subject: 'x', issuerKeys: 'k', expirationTime: '2027-01-01T00:00:00Z' },
    });
    expect(st.body.staticKeys).toEqual({ issuer: 'https://s', subject: 'x', issuerKeys: 'k', expirationTime: '2027-01-01T00:00:00.000Z' });
    expect((await v1('GET', `/iam/v1/identities?id=${st.body.uid}`)).body.items[0].static).toMatchObject({ expiration: '2027-01-01T00:00:00Z' });
    expect((await v2('DELETE', `/iam/v2beta1/identities/${created.body.uid}`)).body).toEqual({});
  });

  it('roles: CAP_* capabilities both ways', async () => {
    const got = await v2('GET', `/iam/v2beta1/roles/${CUSTOM_ROLE_A}`);
    expect(got.body).toEqual({
      uid: CUSTOM_ROLE_A,
      name: 'publisher',
      description: 'publishes',
      capabilities: ['CAP_REPO_LIST', 'CAP_TAG_CREATE'],
      createTime: expect.stringMatching(MS),
      updateTime: expect.stringMatching(MS),
    });
    const builtIn = await v2('GET', `/iam/v2beta1/roles/${viewer}`);
    expect(builtIn.body).toMatchObject({ uid: viewer, name: 'viewer', description: 'Viewer Role (built-in)' });
    expect(builtIn.body.capabilities).toContain('CAP_IAM_GROUPS_LIST');
    const created = await v2('POST', `/iam/v2beta1/roles/${A}`, { name: 'auditor', capabilities: ['CAP_IAM_GROUPS_LIST', 'CAP_ADVISORIES_LIST'] });
    expect(created.body).toEqual({
      uid: expect.any(String),
      name: 'auditor',
      description: '',
      capabilities: ['CAP_ADVISORIES_LIST', 'CAP_IAM_GROUPS_LIST'],
      createTime: expect.stringMatching(MS),
      updateTime: expect.stringMatching(MS),
    });
    expect((await v1('GET', `/iam/v1/roles?id=${created.body.uid}`)).body.items[0].capabilities).toEqual(['advisories.list', 'groups.list']);
    expect((await v2('DELETE', `/iam/v2beta1/roles/${created.body.uid}`)).body).toEqual({});
    expect((await v2('GET', `/iam/v2beta1/roles/${created.body.uid}`)).status).toBe(404);
    const bad = await v2('POST', `/iam/v2beta1/roles/${A}`, { name: 'bad', capabilities: ['groups.list'] });
    expect(bad.body).toEqual(
      aipError(3, 'Invalid argument: capabilities: unknown capability "groups.list"', 'INVALID_ARGUMENT', 'iam.chainguard.dev', [
        badRequest([{ field: 'capabilities', description: 'unknown capability "groups.list"' }]),
      ]),
    );
  });

  it('role bindings: create takes {identityUid, roleUid} and answers the hydrated spec shape in 3 v1 calls; get in 2; delete', async () => {
    await env.h.emu.stats.reset();
    const created = await v2('POST', `/iam/v2beta1/roleBindings/${A_TEAM}`, { identityUid: CAROL, roleUid: CUSTOM_ROLE_A });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      uid: expect.stringMatching(new RegExp(`^${A_TEAM}/[0-9a-f]{16}$`)),
      group: { uid: A_TEAM, name: 'team', description: 'A team' },
      identity: { uid: CAROL, name: 'carol', description: '', issuer: 'https://issuer.example', subject: 'carol' },
      role: { uid: CUSTOM_ROLE_A, name: 'publisher', description: 'publishes' },
      createTime: expect.stringMatching(MS),
    });
    expect(env.h.emu.stats.snapshot().requests).toEqual({
      [`POST /iam/v1/rolebindings/${A_TEAM}`]: 1,
      'GET /iam/v1/rolebindings': 1,
      'GET /iam/v1/identities': 1,
    });
    // a Get by another caller: its own identity lookup (nothing is shared across callers)
    env.h.emu.stats.reset();
    expect((await call(env.proxy.url, 'GET', `/iam/v2beta1/roleBindings/${created.body.uid}`, { token: TOKENS.alice })).body).toEqual(created.body);
    expect(env.h.emu.stats.snapshot().total).toBe(2);
    const missing = await v2('POST', `/iam/v2beta1/roleBindings/${A_TEAM}`, {});
    expect(missing.body).toEqual(
      aipError(3, 'Invalid argument: identityUid: identityUid is required; roleUid: roleUid is required', 'INVALID_ARGUMENT', 'iam.chainguard.dev', [
        badRequest([
          { field: 'identityUid', description: 'identityUid is required' },
          { field: 'roleUid', description: 'roleUid is required' },
        ]),
      ]),
    );
    expect((await v2('DELETE', `/iam/v2beta1/roleBindings/${created.body.uid}`)).body).toEqual({});
  });

  it('identity providers: clientSecret is sent to v1 and never shown', async () => {
    const created = await v2('POST', `/iam/v2beta1/identityProviders/${A}`, {
      name: 'sso',
      defaultRole: viewer,
      oidc: { issuer: 'https://sso', clientId: 'c', clientSecret: 'sekret' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ uid: expect.any(String), name: 'sso', defaultRole: viewer, oidc: { issuer: 'https://sso', clientId: 'c' } });
    expect(JSON.stringify(created.body)).not.toContain('sekret');
    expect(env.h.emu.store.identityProviders.get(created.body.uid)?.oidc?.clientSecret).toBe('sekret');
    expect((await v2('GET', `/iam/v2beta1/identityProviders/${created.body.uid}`)).body).toEqual(created.body);
    expect((await v2('DELETE', `/iam/v2beta1/identityProviders/${created.body.uid}`)).body).toEqual({});
  });

  it('account associations: the uid is the group', async () => {
    const created = await v2('POST', `/iam/v2beta1/accountAssociations/${A_TEAM}`, { name: 'accts', amazon: { account: '123456789012' } });
    expect(created.body).toEqual({
      uid: A_TEAM,
      name: 'accts',
      description: '',
      amazon: { account: '123456789012' },
      createTime: expect.stringMatching(MS),
      updateTime: expect.stringMatching(MS),
    });
    expect((await v2('GET', `/iam/v2beta1/accountAssociations/${A_TEAM}`)).body).toEqual(created.body);
    expect((await v2('DELETE', `/iam/v2beta1/accountAssociations/${A_TEAM}`)).body).toEqual({});
    expect((await v2('GET', `/iam/v2beta1/accountAssociations/${A_TEAM}`)).status).toBe(404);
  });

  it('group invites: the code only on create; no update', async () => {
    const created = await v2('POST', `/iam/v2beta1/groupInvites/${A}`, { roleUid: viewer, ttl: '3600s', email: 'new@x.example', singleUse: true });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      uid: expect.stringMatching(new RegExp(`^${A}/`)),
      expirationTime: expect.stringMatching(MS),
      keyId: expect.any(String),
      roleUid: viewer,
      role: { uid: viewer, name: 'viewer', description: 'Viewer Role (built-in)', capabilities: expect.arrayContaining(['CAP_IAM_GROUPS_LIST']) },
      email: 'new@x.example',
      createTime: expect.stringMatching(MS),
      singleUse: true,
      code: expect.stringMatching(/^[\w-]{20,}$/),
    });
    const got = await v2('GET', `/iam/v2beta1/groupInvites/${created.body.uid}`);
    const { code: _code, ...withoutCode } = created.body;
    expect(got.body).toEqual(withoutCode);
    const patch = await v2('PATCH', `/iam/v2beta1/groupInvites/${created.body.uid}`, { email: 'x' });
    expect(patch.status).toBe(501);
    expect(patch.body).toEqual(aipError(12, /^Unimplemented: group invites cannot be updated/, 'UNIMPLEMENTED'));
    expect((await v2('DELETE', `/iam/v2beta1/groupInvites/${created.body.uid}`)).body).toEqual({});
  });

  it('repos, tags, advisories: List and Get only, in their own domains', async () => {
    const repo = await v2('GET', `/registry/v2beta1/repos/${REPO_A}`);
    expect(repo.body).toEqual({
      uid: REPO_A,
      name: 'nginx',
      catalogTier: 'CATALOG_TIER_APPLICATION',
      bundles: ['application'],
      aliases: [],
      createTime: '2025-10-01T00:00:00.000Z',
      activeTags: [],
      description: '',
      updateTime: '2025-10-01T00:00:00.000Z',
    });
    const tag = await v2('GET', `/registry/v2beta1/tags/${childUid(REPO_A, 't-latest')}`);
    expect(tag.body).toEqual({
      uid: childUid(REPO_A, 't-latest'),
      name: 'latest',
      digest: 'sha256:aaa',
      updateTime: '2026-05-01T00:00:00.000Z',
      deprecated: false,
      bundles: [],
    });
    const adv = await v2('GET', `/vulnerabilities/v2beta1/advisories/${childUid(A, 'adv-2')}`);
    expect(adv.body).toMatchObject({
      uid: childUid(A, 'adv-2'),
      advisoryId: 'CGA-2',
      legacyAdvisoryId: 'LEG-2',
      createTime: '2026-01-01T00:00:00.000Z',
      updateTime: '2026-03-01T00:00:00.000Z',
    });
    expect(adv.body.events[0]).toMatchObject({ reviewState: 'REVIEW_STATE_APPROVED', createTime: '2026-01-01T00:00:00.000Z', fixed: { fixedVersion: '1.2' } });
    expect(adv.body).not.toHaveProperty('legacyAdvisoryID');
    for (const [method, path, domain] of [
      ['POST', `/registry/v2beta1/repos/${A}`, 'registry.chainguard.dev'],
      ['DELETE', `/registry/v2beta1/tags/${childUid(REPO_A, 't-latest')}`, 'registry.chainguard.dev'],
      ['PATCH', `/vulnerabilities/v2beta1/advisories/${childUid(A, 'adv-2')}`, 'vulnerabilities.chainguard.dev'],
    ] as const) {
      const res = await v2(method, path, {});
      expect(res.status).toBe(501);
      expect(res.body).toEqual(aipError(12, /^Unimplemented: /, 'UNIMPLEMENTED', domain));
    }
    const missing = await v2('GET', `/registry/v2beta1/repos/${B}/0000000000000000`);
    expect(missing.body).toEqual(aipError(5, `Not found: repos/${B}/0000000000000000`, 'NOT_FOUND', 'registry.chainguard.dev'));
  });

  it('lists answer the v2 envelope with v2 items', async () => {
    const res = await v2('GET', `/registry/v2beta1/tags?uidp.children_of=${REPO_A}&include_referrers=true`);
    expect(res.body.totalCount).toBe('2');
    expect((res.body.tags as { name: string }[]).map((t) => t.name).sort()).toEqual(['latest', 'sha256-abc.sig']);
    const named = await v2('GET', `/iam/v2beta1/identities?name=alice`);
    expect((named.body.identities as { uid: string }[]).map((i) => i.uid)).toEqual([ALICE]);
    const noName = await v2('GET', '/iam/v2beta1/roleBindings?name=x');
    expect(noName.status).toBe(400);
    expect(noName.body.details[1].fieldViolations[0].field).toBe('name');
  });
});
