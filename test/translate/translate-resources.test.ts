import { describe, expect, it } from 'vitest';
import type { CompiledResource } from '../../src/mapping/compiled-resource.js';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import { normalizeTimestamp } from '../../src/translate/timestamp.js';
import { toV1 } from '../../src/translate/v2-to-v1.js';
import { toV2 } from '../../src/translate/v1-to-v2.js';
import { normalizeKeys, validateInput } from '../../src/translate/validate-input.js';

const resources = new Map(loadMappings().map((r) => [r.segment, r]));
const res = (name: string) => resources.get(name) as CompiledResource;
const out = (name: string, v1: Record<string, unknown>) => toV2(v1, res(name).rules, res(name).capabilities);
const into = (name: string, v2: Record<string, unknown>, unknown: 'drop' | 'keep' = 'drop') => toV1(v2, res(name).rules, res(name).capabilities, unknown);

describe('timestamps', () => {
  it.each([
    ['2026-03-27T13:20:03Z', '2026-03-27T13:20:03.000Z'],
    ['2026-03-27T13:20:03.4Z', '2026-03-27T13:20:03.400Z'],
    ['2026-03-27T13:20:03.456Z', '2026-03-27T13:20:03.456Z'],
    ['2026-03-27T13:20:03.456789Z', '2026-03-27T13:20:03.456Z'],
    ['2026-03-27T13:20:03.456789123Z', '2026-03-27T13:20:03.456Z'],
    ['2026-03-27T15:20:03+02:00', '2026-03-27T13:20:03.000Z'],
  ])('%s leaves as %s', (given, expected) => {
    expect(normalizeTimestamp(given)).toBe(expected);
  });
  it('gives the text a Date round trip gives, for times in and out of range, in UTC or with an offset', () => {
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    // every combination of edge values: month 0 and 13, day 0, 28 to 32, hour 24, minute and second 60,
    // leap and common years, no fraction or 1 to 9 digits, lower-case t and z, and an offset
    let checked = 0;
    for (const year of [0, 1900, 2000, 2024, 2026, 9999])
      for (const month of [0, 1, 2, 4, 12, 13])
        for (const day of [0, 1, 28, 29, 30, 31, 32])
          for (const [hour, minute, second] of [
            [0, 0, 0],
            [23, 59, 59],
            [24, 0, 0],
            [12, 60, 0],
            [12, 0, 60],
          ] as const)
            for (const fraction of ['', '.5', '.999', '.9999', '.123456789'])
              for (const [t, zone] of [
                ['T', 'Z'],
                ['t', 'z'],
                ['T', '+02:00'],
              ] as const) {
                const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}${t}${pad(hour)}:${pad(minute)}:${pad(second)}${fraction}${zone}`;
                const ms = Date.parse(text);
                expect(normalizeTimestamp(text), text).toBe(Number.isNaN(ms) ? text : new Date(ms).toISOString());
                checked += 1;
              }
    expect(checked).toBe(6 * 6 * 7 * 5 * 5 * 3);
  });
  it('leaves what is not a timestamp as it came', () => {
    expect(normalizeTimestamp('yesterday')).toBe('yesterday');
    expect(normalizeTimestamp(7)).toBe(7);
  });
});

describe('v1 → v2 and back, per resource', () => {
  it('groups: id → uid; unknown v1 fields pass through', () => {
    const v1 = { id: 'g', name: 'n', description: 'd', resourceLimits: { clusters: 1 }, verified: true, kind: 'ORG_KIND_DEV', futureField: { x: 1 } };
    expect(out('groups', v1)).toEqual({
      uid: 'g',
      name: 'n',
      description: 'd',
      resourceLimits: { clusters: 1 },
      verified: true,
      kind: 'ORG_KIND_DEV',
      futureField: { x: 1 },
    });
    expect(into('groups', { uid: 'g', name: 'n', description: 'd', verified: false, createTime: 'x', resourceLimits: {} })).toEqual({
      name: 'n',
      description: 'd',
      verified: false,
    });
    expect(into('groups', { name: 'n', futureField: 1 }, 'keep')).toEqual({ name: 'n', futureField: 1 });
  });

  it('identities: timestamps, lastSeen, static → staticKeys, service principals', () => {
    expect(
      out('identities', {
        id: 'i',
        name: 'n',
        createdAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-02T00:00:00.5Z',
        lastSeen: '2026-01-03T00:00:00.123456Z',
        static: { issuer: 'iss', subject: 's', issuerKeys: 'k', expiration: '2026-02-01T00:00:00Z', audiences: ['a'] },
      }),
    ).toEqual({
      uid: 'i',
      name: 'n',
      createTime: '2026-01-01T00:00:00.000Z',
      updateTime: '2026-01-02T00:00:00.500Z',
      lastSeenTime: '2026-01-03T00:00:00.123Z',
      staticKeys: { issuer: 'iss', subject: 's', issuerKeys: 'k', expirationTime: '2026-02-01T00:00:00.000Z', audiences: ['a'] },
    });
    expect(out('identities', { id: 'i', servicePrincipal: 'INGESTER' }).servicePrincipal).toBe('SERVICE_PRINCIPAL_INGESTER');
    expect(out('identities', { id: 'i', servicePrincipal: 'UNKNOWN' }).servicePrincipal).toBe('SERVICE_PRINCIPAL_UNSPECIFIED');
    expect(into('identities', { name: 'n', servicePrincipal: 'SERVICE_PRINCIPAL_INGESTER' })).toEqual({ name: 'n', servicePrincipal: 'INGESTER' });
    expect(into('identities', { servicePrincipal: 'SERVICE_PRINCIPAL_UNSPECIFIED' })).toEqual({ servicePrincipal: 'UNKNOWN' });
    expect(into('identities', { staticKeys: { issuer: 'i', expirationTime: '2026-02-01T00:00:00.000Z' } })).toEqual({
      static: { issuer: 'i', expiration: '2026-02-01T00:00:00.000Z' },
    });
    expect(into('identities', { claimMatch: { issuer: 'i', subject: 's' }, lastSeenTime: 'x', email: 'e' })).toEqual({
      claimMatch: { issuer: 'i', subject: 's' },
    });
  });

  it('roles: capability names ↔ CAP_* enum names', () => {
    expect(out('roles', { id: 'r', name: 'n', description: '', capabilities: ['groups.list', 'repo.create', 'advisories.approve', 'not.known'] })).toEqual({
      uid: 'r',
      name: 'n',
      description: '',
      capabilities: ['CAP_IAM_GROUPS_LIST', 'CAP_REPO_CREATE', 'CAP_ADVISORIES_APPROVE', 'not.known'],
    });
    expect(into('roles', { name: 'n', capabilities: ['CAP_IAM_ROLE_BINDINGS_CREATE', 'CAP_TAG_LIST'] })).toEqual({
      name: 'n',
      capabilities: ['role_bindings.create', 'tag.list'],
    });
  });

  it('role bindings: the partly hydrated v1 item becomes the v2 shape; create takes two uids', () => {
    const v1 = {
      id: 'g/b',
      group: { id: 'g', name: 'grp', description: 'gd', resourceLimits: {}, verified: false },
      identity: 'g/i',
      role: { id: 'r', name: 'viewer', description: 'vd', capabilities: ['groups.list'] },
      email: 'e@x',
      claimMatchIssuer: 'https://iss',
      claimMatchSubject: 'sub',
      createdAt: '2026-01-01T00:00:00Z',
      emailUnverified: '',
    };
    expect(out('roleBindings', v1)).toEqual({
      uid: 'g/b',
      group: { uid: 'g', name: 'grp', description: 'gd' },
      identity: { uid: 'g/i', issuer: 'https://iss', subject: 'sub' },
      role: { uid: 'r', name: 'viewer', description: 'vd' },
      createTime: '2026-01-01T00:00:00.000Z',
    });
    expect(into('roleBindings', { identityUid: 'g/i', roleUid: 'r', uid: 'x', group: {} })).toEqual({ identity: 'g/i', role: 'r' });
    expect(into('roleBindings', normalizeKeys({ identity_uid: 'g/i', role_uid: 'r' }))).toEqual({ identity: 'g/i', role: 'r' });
  });

  it('identity providers: clientSecret goes in, never comes out', () => {
    const v1 = { id: 'p', name: 'n', defaultRole: 'r', oidc: { issuer: 'i', clientId: 'c', clientSecret: 'leaked?', additionalScopes: [] } };
    expect(out('identityProviders', v1)).toEqual({ uid: 'p', name: 'n', defaultRole: 'r', oidc: { issuer: 'i', clientId: 'c', additionalScopes: [] } });
    expect(into('identityProviders', { name: 'n', oidc: { issuer: 'i', clientSecret: 's' } })).toEqual({ name: 'n', oidc: { issuer: 'i', clientSecret: 's' } });
  });

  it('account associations: group → uid, provider objects as they are', () => {
    const v1 = { group: 'g', name: 'n', description: '', github: { appInstallations: { '123': { installations: [{ installationId: '9', name: 'x' }] } } } };
    expect(out('accountAssociations', v1)).toEqual({ uid: 'g', name: 'n', description: '', github: v1.github });
  });

  it('group invites: role object → roleUid and role with CAP_* names; expiration, createdAt', () => {
    const v1 = {
      id: 'g/v',
      expiration: '2026-05-01T00:00:00Z',
      keyId: 'k',
      role: { id: 'r', name: 'viewer', description: 'd', capabilities: ['groups.list'] },
      email: 'a@b',
      createdAt: '2026-04-01T00:00:00Z',
      singleUse: true,
      code: 'c0de',
    };
    expect(out('groupInvites', v1)).toEqual({
      uid: 'g/v',
      expirationTime: '2026-05-01T00:00:00.000Z',
      keyId: 'k',
      roleUid: 'r',
      role: { uid: 'r', name: 'viewer', description: 'd', capabilities: ['CAP_IAM_GROUPS_LIST'] },
      email: 'a@b',
      createTime: '2026-04-01T00:00:00.000Z',
      singleUse: true,
      code: 'c0de',
    });
    expect(into('groupInvites', { roleUid: 'r', email: 'a@b', ttl: '60s', singleUse: true, code: 'x', keyId: 'y' })).toEqual({
      role: 'r',
      email: 'a@b',
      ttl: '60s',
      singleUse: true,
    });
  });

  it('repos: catalog tiers, sync_config, account renames; readme and syncApks dropped', () => {
    const v1 = {
      id: 'g/r',
      name: 'nginx',
      catalogTier: 'APPLICATION',
      readme: '# big',
      sync_config: { source: 's', uniqueTags: true, expiration: '2027-01-01T00:00:00Z', syncApks: true, gracePeriod: true },
      customOverlay: {
        accounts: { users: [{ uid: 1, userName: 'u', gid: 2, groupName: 'g' }], groups: [{ gid: 2, groupName: 'g', members: ['u'] }], runAs: 'u' },
      },
      createTime: '2025-01-01T00:00:00.1Z',
    };
    expect(out('repos', v1)).toEqual({
      uid: 'g/r',
      name: 'nginx',
      catalogTier: 'CATALOG_TIER_APPLICATION',
      sync_config: { source: 's', uniqueTags: true, expirationTime: '2027-01-01T00:00:00.000Z', gracePeriod: true },
      customOverlay: {
        accounts: { users: [{ uid: 1, username: 'u', gid: 2, groupName: 'g' }], groups: [{ gid: 2, groupname: 'g', members: ['u'] }], runAs: 'u' },
      },
      createTime: '2025-01-01T00:00:00.100Z',
    });
    expect(out('repos', { id: 'x', catalogTier: 'UNKNOWN' }).catalogTier).toBe('CATALOG_TIER_UNSPECIFIED');
  });

  it('tags: lastUpdated → updateTime', () => {
    expect(out('tags', { id: 't', name: 'latest', digest: 'sha256:a', lastUpdated: '2026-01-01T00:00:00Z', deprecated: false, bundles: [] })).toEqual({
      uid: 't',
      name: 'latest',
      digest: 'sha256:a',
      updateTime: '2026-01-01T00:00:00.000Z',
      deprecated: false,
      bundles: [],
    });
  });

  it('advisories: timestamps, legacyAdvisoryID, events with review states and renamed scan fields', () => {
    const v1 = {
      id: 'g/a',
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-02T00:00:00Z',
      deletedAt: '2026-01-03T00:00:00Z',
      legacyAdvisoryID: 'L-1',
      aliases: ['CVE-1'],
      events: [
        {
          id: 'g/a/e1',
          timestamp: '2026-01-01T00:00:00Z',
          status: 'APPROVED',
          detection: { scanv1: { subpackageName: 'sp', componentName: 'c', scanner: 'grype' } },
        },
        {
          id: 'g/a/e2',
          timestamp: '2026-01-02T00:00:00Z',
          status: 'UNKNOWN',
          falsePositiveDetermination: { type: 'COMPONENT_VULNERABILITY_MISMATCH', note: 'n' },
        },
        { id: 'g/a/e3', timestamp: '2026-01-03T00:00:00Z', status: 'PENDING', componentLocationChanged: { previousLocation: 'a', newLocation: 'b' } },
      ],
    };
    expect(out('advisories', v1)).toEqual({
      uid: 'g/a',
      createTime: '2026-01-01T00:00:00.000Z',
      updateTime: '2026-01-02T00:00:00.000Z',
      deleteTime: '2026-01-03T00:00:00.000Z',
      legacyAdvisoryId: 'L-1',
      aliases: ['CVE-1'],
      events: [
        {
          uid: 'g/a/e1',
          createTime: '2026-01-01T00:00:00.000Z',
          reviewState: 'REVIEW_STATE_APPROVED',
          detection: { scanv1: { subpackage: 'sp', component: 'c', scanner: 'grype' } },
        },
        {
          uid: 'g/a/e2',
          createTime: '2026-01-02T00:00:00.000Z',
          reviewState: 'REVIEW_STATE_UNSPECIFIED',
          falsePositiveDetermination: { type: 'TYPE_COMPONENT_VULNERABILITY_MISMATCH', note: 'n' },
        },
        { uid: 'g/a/e3', createTime: '2026-01-03T00:00:00.000Z', reviewState: 'REVIEW_STATE_PENDING' },
      ],
    });
  });
});

describe('create validation', () => {
  it('group create with {} names exactly the name field and the SDK rule', () => {
    expect(validateInput({}, res('groups'))).toEqual([{ field: 'name', description: 'name must match "^[a-z0-9 ._-]{1,}$"' }]);
    expect(validateInput({ name: 'Bad!' }, res('groups'))).toEqual([{ field: 'name', description: 'name must match "^[a-z0-9 ._-]{1,}$"' }]);
    expect(validateInput({ name: 'ok', description: 'x\ny' }, res('groups'))).toEqual([
      { field: 'description', description: 'description must match "^[\\S ]{0,512}$"' },
    ]);
    expect(validateInput({ name: 'ok', verified: 'yes' }, res('groups'))).toEqual([{ field: 'verified', description: 'verified must be true or false' }]);
    // a field the server fills is ignored when it is of its type, refused when it is not (as protojson reads a body)
    expect(validateInput({ name: 'ok', uid: 'ignored', createTime: '2020-01-01T00:00:00Z' }, res('groups'))).toEqual([]);
    expect(validateInput({ name: 'ok', createTime: 'ignored' }, res('groups'))).toEqual([
      { field: 'createTime', description: 'createTime must be an RFC 3339 timestamp' },
    ]);
    // the object a create requires, and what it requires inside
    expect(validateInput({ name: 'ok', defaultRole: 'r', oidc: { clientSecret: 's' } }, res('identityProviders')).map((v) => v.field)).toEqual([
      'oidc.issuer',
      'oidc.clientId',
    ]);
  });

  it('names every failed field at once', () => {
    expect(validateInput({}, res('roleBindings'))).toEqual([
      { field: 'identityUid', description: 'identityUid is required' },
      { field: 'roleUid', description: 'roleUid is required' },
    ]);
    expect(validateInput({ identityUid: 'nope', roleUid: 'a'.repeat(40) }, res('roleBindings'))).toEqual([
      { field: 'identityUid', description: 'identityUid must be a uid (40 hex characters, then /16 hex per level)' },
    ]);
    expect(validateInput({ name: 'r', capabilities: ['CAP_IAM_GROUPS_LIST', 'CAP_FLYING'] }, res('roles'))).toEqual([
      { field: 'capabilities', description: 'unknown capability "CAP_FLYING"' },
    ]);
    expect(validateInput({ name: 'i', servicePrincipal: 'INGESTER' }, res('identities'))).toEqual([
      { field: 'servicePrincipal', description: 'unknown value "INGESTER"' },
    ]);
  });
});
