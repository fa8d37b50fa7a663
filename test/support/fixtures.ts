import { createHash } from 'node:crypto';
import type { Seed } from '../../src/emulator/seed-loader.js';

// Fixture uids are derived from labels so tests can name them; the emulator's own code never sees these helpers.
const hex = (label: string, n: number) => createHash('sha256').update(label).digest('hex').slice(0, n);
export const rootUid = (label: string) => hex(`root/${label}`, 40);
export const childUid = (parent: string, label: string) => `${parent}/${hex(`child/${parent}/${label}`, 16)}`;

export const A = rootUid('tenant-a');
export const A_TEAM = childUid(A, 'team');
export const A_TEAM_SUB = childUid(A_TEAM, 'sub');
export const B = rootUid('tenant-b');

export const ALICE = childUid(A, 'alice'); // owner of tenant A
export const CAROL = childUid(A_TEAM, 'carol'); // viewer of A/team only
export const BOB = childUid(B, 'bob'); // viewer of tenant B
export const REPO_A = childUid(A, 'repo-nginx');
export const REPO_B = childUid(B, 'repo-redis');
export const CUSTOM_ROLE_A = childUid(A, 'role-publisher');

export const TOKENS = {
  alice: 'token-alice-tenant-a',
  carol: 'token-carol-team-a',
  bob: 'token-bob-tenant-b',
} as const;
export const DEV_TOKEN = 'dev-token-for-tests-0123456789';

/** Two tenants with their own folders, identities, roles, bindings, repos, tags and advisories. */
export function twoTenantSeed(): Seed {
  return {
    groups: [
      { id: A_TEAM_SUB, name: 'sub', description: 'below team' },
      { id: A, name: 'tenant-a', description: 'Tenant A', resourceLimits: { clusters: 1, idps: 1, repositories: 10 } },
      { id: A_TEAM, name: 'team', description: 'A team' },
      { id: B, name: 'tenant-b', description: 'Tenant B', verified: true },
    ],
    roles: [{ id: CUSTOM_ROLE_A, name: 'publisher', description: 'publishes', capabilities: ['repo.list', 'tag.create'] }],
    identities: [
      {
        id: ALICE,
        name: 'alice',
        description: 'owner of A',
        claimMatch: { issuer: 'https://issuer.example', subject: 'alice' },
        createdAt: '2026-01-02T03:04:05.678Z',
        updatedAt: '2026-01-03T00:00:00Z',
      },
      { id: CAROL, name: 'carol', claimMatch: { issuer: 'https://issuer.example', subject: 'carol' } },
      { id: BOB, name: 'bob', servicePrincipal: 'INGESTER' },
    ],
    rolebindings: [
      { id: childUid(A, 'rb-alice'), identity: ALICE, role: 'owner', createdAt: '2026-01-04T00:00:00Z' },
      { id: childUid(A_TEAM, 'rb-carol'), identity: CAROL, role: 'viewer' },
      { id: childUid(B, 'rb-bob'), identity: BOB, role: 'viewer' },
    ],
    repos: [
      { id: REPO_A, name: 'nginx', catalogTier: 'APPLICATION', createTime: '2025-10-01T00:00:00Z', bundles: ['application'] },
      { id: REPO_B, name: 'redis', createTime: '2025-10-02T00:00:00.120Z' },
    ],
    tags: [
      { id: childUid(REPO_A, 't-latest'), name: 'latest', digest: 'sha256:aaa', lastUpdated: '2026-05-01T00:00:00Z' },
      { id: childUid(REPO_A, 't-ref'), name: 'sha256-abc.sig', digest: 'sha256:bbb', lastUpdated: '2026-05-02T00:00:00Z' },
      { id: childUid(REPO_A, 't-date'), name: '1.0-20260101', digest: 'sha256:ccc', lastUpdated: '2026-05-03T00:00:00Z' },
      { id: childUid(REPO_A, 't-epoch'), name: '1.0-r2', digest: 'sha256:ddd', lastUpdated: '2026-05-04T00:00:00Z' },
      { id: childUid(REPO_B, 't-latest'), name: 'latest', digest: 'sha256:eee', lastUpdated: '2026-05-05T00:00:00Z' },
    ],
    advisories: [
      {
        id: childUid(A, 'adv-1'),
        advisoryId: 'CGA-1',
        artifactName: 'openssl',
        artifactType: 'package',
        aliases: ['CVE-1'],
        createdAt: '2026-02-01T00:00:00Z',
        updatedAt: '2026-02-05T00:00:00Z',
        events: [{ timestamp: '2026-02-01T00:00:00Z', author: 'scanner', status: 'PENDING', detection: { manual: {} } }],
      },
      {
        id: childUid(A, 'adv-2'),
        advisoryId: 'CGA-2',
        artifactName: 'zlib',
        artifactType: 'package',
        componentName: 'libz',
        aliases: ['CVE-2', 'GHSA-2'],
        createdAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-03-01T00:00:00Z',
        legacyAdvisoryID: 'LEG-2',
        events: [{ timestamp: '2026-01-01T00:00:00Z', author: 'human', reviewer: 'lead', status: 'APPROVED', fixed: { fixedVersion: '1.2' } }],
      },
      {
        id: childUid(A, 'adv-3'),
        advisoryId: 'CGA-3',
        artifactName: 'curl',
        artifactType: 'package',
        aliases: [],
        createdAt: '2026-03-01T00:00:00Z',
        updatedAt: '2026-03-02T00:00:00Z',
      },
      { id: childUid(B, 'adv-b'), advisoryId: 'CGA-B', artifactName: 'bash', artifactType: 'package', aliases: ['CVE-B'] },
    ],
    tokens: { [TOKENS.alice]: ALICE, [TOKENS.carol]: CAROL, [TOKENS.bob]: BOB },
  };
}
