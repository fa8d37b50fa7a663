import { describe, expect, it } from 'vitest';
import { loadSeedFile } from '../../src/emulator/seed-loader.js';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { A, ALICE, B, DEV_TOKEN, rootUid, TOKENS, twoTenantSeed } from '../support/fixtures.js';
import { call, writeSeedFile } from '../support/emulator-harness.js';

const load = (seed: unknown) => () => loadSeedFile(writeSeedFile(seed), Date.now());

describe('emulator: seed files', () => {
  it('loads the given uids, keeps given timestamps and fills missing ones at load', () => {
    const now = Date.parse('2026-06-01T00:00:00.000Z');
    const store = loadSeedFile(writeSeedFile(twoTenantSeed()), now);
    expect(store.groups.get(A)?.name).toBe('tenant-a');
    expect(store.identities.get(ALICE)?.createdAt).toBe(Date.parse('2026-01-02T03:04:05.678Z'));
    const carol = [...store.identities.values()].find((i) => i.name === 'carol');
    expect(carol?.createdAt).toBe(now);
    // seeded roles exist beside the built-ins
    expect([...store.roles.values()].map((r) => r.name).sort()).toEqual(['editor', 'owner', 'publisher', 'viewer']);
    expect(store.tokens.size).toBe(3);
  });

  it('holds extra managed roles at the root beside the built-in ones, readable by every caller; only a seed can add one', async () => {
    const seed = twoTenantSeed();
    const managed = rootUid('managed-role');
    seed.roles?.push({ id: managed, name: 'auditor', description: 'managed', capabilities: ['groups.list'] });
    const store = loadSeedFile(writeSeedFile(seed), 0);
    expect(store.roles.get(managed)).toEqual({ id: managed, name: 'auditor', description: 'managed', capabilities: ['groups.list'] });
    const emu = await startEmulator({ host: '127.0.0.1', port: 0, seedFile: writeSeedFile(seed), devToken: DEV_TOKEN, trustedIssuers: [], v2: false });
    try {
      const seen = await call(emu.url, 'GET', `/iam/v1/roles?id=${managed}`, { token: TOKENS.bob });
      expect(seen.body.items).toEqual([{ id: managed, name: 'auditor', description: 'managed', capabilities: ['groups.list'] }]);
      // over the API a role needs a parent group
      const atRoot = await call(emu.url, 'POST', '/iam/v1/roles/', { token: DEV_TOKEN, body: { name: 'x', capabilities: ['groups.list'] } });
      expect(atRoot.status).toBe(404);
    } finally {
      await emu.close();
    }
  });

  it('refuses a malformed file with a message naming the record and the problem', () => {
    expect(load('not json at all')).toThrow(/seed file .*: \(top level\)/);
    expect(() => loadSeedFile('/no/such/seed.json', 0)).toThrow(/seed file \/no\/such\/seed.json: ENOENT/);
    expect(load({ widgets: [] })).toThrow(/: \(top level\): Unrecognized key: "widgets"$/);
    expect(load({ groups: [3] })).toThrow(/: groups\[0\]: Invalid input: expected record, received number$/);
    expect(
      load({
        groups: [
          { id: A, name: 'ok' },
          { id: 'not-a-uid', name: 'x' },
        ],
      }),
    ).toThrow(/groups\[1\]: "id" must be a uid/);
    expect(load({ groups: [{ id: A, name: 'Bad Name' }] })).toThrow(new RegExp(`groups\\[0\\] \\(${A}\\): name must match`));
    expect(
      load({
        groups: [
          { id: A, name: 'a' },
          { id: A, name: 'b' },
        ],
      }),
    ).toThrow(/groups\[1\]: duplicate id/);
    expect(load({ groups: [{ id: `${B}/0123456789abcdef`, name: 'orphan' }] })).toThrow(/groups\[0\].*group ".*" not found/);
    expect(
      load({
        groups: [{ id: A, name: 'a' }],
        identities: [{ id: `${A}/0123456789abcdef`, name: 'x', claimMatch: { issuer: 'i', subject: 's' }, createdAt: 'yesterday' }],
      }),
    ).toThrow(/identities\[0\].*createdAt must be an RFC 3339 timestamp/);
    expect(load({ tokens: { abc: ALICE } })).toThrow(/tokens\["abc…"\]: identity .* is not in the seed/);
  });

  it('serves the seed instead of the demo data, and static tokens authenticate', async () => {
    const emu = await startEmulator({ host: '127.0.0.1', port: 0, seedFile: writeSeedFile(twoTenantSeed()), trustedIssuers: [] });
    try {
      expect(emu.demoOrg).toBeUndefined();
      expect(emu.devToken).toMatch(/^dev-[\w-]{20,}$/);
      const res = await call(emu.url, 'GET', '/iam/v1/groups?uidp.in_root=true', { token: emu.devToken });
      expect((res.body.items as { name: string }[]).map((g) => g.name).sort()).toEqual(['tenant-a', 'tenant-b']);
    } finally {
      await emu.close();
    }
  });

  it('without a seed file serves the demo organization', async () => {
    const emu = await startEmulator({ host: '127.0.0.1', port: 0, trustedIssuers: [] });
    try {
      expect(emu.demoOrg).toMatch(/^[0-9a-f]{40}$/);
      const org = await call(emu.url, 'GET', `/iam/v1/groups?id=${emu.demoOrg}`, { token: emu.devToken });
      expect(org.body.items[0]).toMatchObject({ name: 'demo-org' });
      for (const path of [
        '/iam/v1/groups',
        '/iam/v1/identities',
        '/iam/v1/rolebindings',
        '/registry/v1/repos',
        '/registry/v1/tags',
        '/vulnerabilities/v1/advisories',
      ]) {
        const res = await call(emu.url, 'GET', `${path}?uidp.descendants_of=${emu.demoOrg}`, { token: emu.devToken });
        expect(res.body.items.length, path).toBeGreaterThan(1);
      }
    } finally {
      await emu.close();
    }
  });
});
