import { createHash } from 'node:crypto';
import { BUILT_IN_ROLES } from './capabilities.js';
import type { Seed } from './seed-loader.js';

// Demo uids are derived from labels, so the demo organization has the same uid on every start.
const hex = (label: string, length: number) => createHash('sha256').update(`v2proxy-demo/${label}`).digest('hex').slice(0, length);
const root = (label: string) => hex(label, 40);
const child = (parent: string, label: string) => `${parent}/${hex(label, 16)}`;

export const DEMO_ORG = root('org');

const engineering = child(DEMO_ORG, 'engineering');
const platform = child(engineering, 'platform');
const security = child(DEMO_ORG, 'security');
const ciBot = child(DEMO_ORG, 'ci-bot');
const deployer = child(engineering, 'deployer');
const scanner = child(security, 'scanner');
const nginx = child(DEMO_ORG, 'repo-nginx');
const python = child(DEMO_ORG, 'repo-python');
const node = child(engineering, 'repo-node');
const releaseManager = child(DEMO_ORG, 'role-release-manager');
const viewer = BUILT_IN_ROLES.find((r) => r.name === 'viewer')?.id ?? '';

const tag = (repo: string, name: string, day: number) => ({
  id: child(repo, `tag-${name}`),
  name,
  digest: `sha256:${hex(`${repo}:${name}`, 64)}`,
  lastUpdated: `2026-0${1 + (day % 9)}-1${day % 10}T08:00:00Z`,
  deprecated: false,
  bundles: [],
});

/** The built-in demo organization: a few folders, identities, bindings, repos with tags, and advisories. */
export const DEMO_SEED: Seed = {
  groups: [
    { id: DEMO_ORG, name: 'demo-org', description: 'Demo organization', resourceLimits: { clusters: 2, idps: 1, repositories: 100 }, verified: true },
    { id: engineering, name: 'engineering', description: 'Engineering folder' },
    { id: platform, name: 'platform', description: 'Platform team' },
    { id: security, name: 'security', description: 'Security team' },
  ],
  roles: [
    {
      id: releaseManager,
      name: 'release-manager',
      description: 'Publishes repos and tags',
      capabilities: ['repo.list', 'repo.update', 'tag.list', 'tag.create', 'tag.update'],
    },
  ],
  identities: [
    {
      id: ciBot,
      name: 'ci-bot',
      description: 'CI pipeline',
      claimMatch: { issuer: 'https://token.actions.githubusercontent.com', subject: 'repo:demo/app:ref:refs/heads/main' },
      createdAt: '2026-01-05T10:00:00Z',
    },
    {
      id: deployer,
      name: 'deployer',
      description: 'Deploys to production',
      claimMatch: { issuer: 'https://accounts.google.com', subject: '1234567890' },
      createdAt: '2026-02-11T09:30:00.250Z',
    },
    { id: scanner, name: 'scanner', description: 'Vulnerability scanner', servicePrincipal: 'TENANT_SCANNER' },
  ],
  rolebindings: [
    { id: child(DEMO_ORG, 'rb-ci-viewer'), identity: ciBot, role: 'viewer', createdAt: '2026-01-05T10:01:00Z' },
    { id: child(engineering, 'rb-deployer-editor'), identity: deployer, role: 'editor' },
    { id: child(DEMO_ORG, 'rb-ci-release'), identity: ciBot, role: releaseManager },
  ],
  identityProviders: [
    {
      id: child(DEMO_ORG, 'idp-okta'),
      name: 'okta',
      description: 'Company SSO',
      defaultRole: viewer,
      oidc: { issuer: 'https://demo.okta.example', clientId: 'demo-client', clientSecret: 'demo-secret', additionalScopes: ['email'] },
    },
  ],
  account_associations: [{ group: DEMO_ORG, name: 'demo-accounts', description: 'Cloud accounts', amazon: { account: '123456789012' } }],
  group_invites: [
    {
      id: child(DEMO_ORG, 'invite-1'),
      role: viewer,
      email: 'new.hire@example.com',
      singleUse: true,
      createdAt: '2026-03-01T12:00:00Z',
      expiration: '2030-03-08T12:00:00Z',
    },
  ],
  repos: [
    {
      id: nginx,
      name: 'nginx',
      catalogTier: 'APPLICATION',
      bundles: ['application'],
      aliases: ['nginx:latest'],
      description: 'Minimal nginx image',
      createTime: '2025-11-02T08:00:00Z',
    },
    { id: python, name: 'python', catalogTier: 'BASE', bundles: ['base'], description: 'Python runtime', createTime: '2025-12-14T08:00:00.500Z' },
    { id: node, name: 'node', catalogTier: 'BASE', description: 'Node.js runtime' },
  ],
  tags: [
    tag(nginx, 'latest', 1),
    tag(nginx, '1.27', 2),
    tag(nginx, '1.27-20260301', 3),
    tag(nginx, '1.27-r1', 4),
    tag(nginx, 'sha256-abc123.sig', 5),
    tag(python, 'latest', 6),
    tag(python, '3.13', 7),
    tag(node, 'latest', 8),
  ],
  advisories: [
    {
      id: child(DEMO_ORG, 'adv-1'),
      advisoryId: 'CGA-2026-0001',
      artifactType: 'package',
      artifactName: 'openssl',
      artifactArchitecture: 'x86_64',
      componentName: 'libssl3',
      aliases: ['CVE-2026-1000', 'GHSA-aaaa-bbbb-cccc'],
      author: 'security@demo.example',
      createdAt: '2026-02-01T00:00:00Z',
      updatedAt: '2026-02-03T00:00:00Z',
      events: [
        { id: child(child(DEMO_ORG, 'adv-1'), 'ev-1'), timestamp: '2026-02-01T00:00:00Z', author: 'scanner', status: 'APPROVED', detection: { manual: {} } },
        {
          id: child(child(DEMO_ORG, 'adv-1'), 'ev-2'),
          timestamp: '2026-02-03T00:00:00Z',
          author: 'security@demo.example',
          status: 'APPROVED',
          fixed: { fixedVersion: '3.4.1-r0' },
        },
      ],
    },
    {
      id: child(DEMO_ORG, 'adv-2'),
      advisoryId: 'CGA-2026-0002',
      artifactType: 'package',
      artifactName: 'zlib',
      artifactArchitecture: 'aarch64',
      aliases: ['CVE-2026-2000'],
      author: 'security@demo.example',
      createdAt: '2026-03-10T00:00:00Z',
      updatedAt: '2026-03-10T00:00:00Z',
      events: [
        {
          id: child(child(DEMO_ORG, 'adv-2'), 'ev-1'),
          timestamp: '2026-03-10T00:00:00Z',
          author: 'scanner',
          status: 'PENDING',
          pendingUpstreamFix: { note: 'waiting for upstream' },
        },
      ],
    },
  ],
};
