import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, B, REPO_A, REPO_B, childUid } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness, v1Error } from '../support/emulator-harness.js';

describe('emulator: /registry/v1/repos and /registry/v1/tags', () => {
  // the emulator's clock, moved by the tests (no sleeps to separate timestamps)
  let clock = Date.parse('2026-06-01T00:00:00Z');
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startHarness({ now: () => clock });
  });
  afterAll(() => h.close());

  it('lists repos with every v1 field, createTime already named so, and zero values', async () => {
    const res = await h.dev('GET', `/registry/v1/repos?id=${REPO_A}`);
    expect(res.body.items).toEqual([
      {
        id: REPO_A,
        name: 'nginx',
        catalogTier: 'APPLICATION',
        bundles: ['application'],
        readme: '',
        aliases: [],
        createTime: '2025-10-01T00:00:00Z',
        activeTags: [],
        description: '',
      },
    ]);
    const redis = await h.dev('GET', `/registry/v1/repos?name=redis`);
    expect(redis.body.items[0]).toMatchObject({ id: REPO_B, catalogTier: 'UNKNOWN', createTime: '2025-10-02T00:00:00.120Z' });
    const inB = await h.dev('GET', `/registry/v1/repos?uidp.children_of=${B}`);
    expect((inB.body.items as { id: string }[]).map((r) => r.id)).toEqual([REPO_B]);
  });

  it('creates and replaces repos, keeping sync_config as a snake_case key and createTime on PUT', async () => {
    const body = {
      name: 'python',
      catalogTier: 5,
      sync_config: { source: 'cgr.dev/x', uniqueTags: true, expiration: '2027-01-01T00:00:00Z' },
      customOverlay: { environment: { A: 'b' } },
    };
    const created = await h.dev('POST', `/registry/v1/repos/${A}`, { body });
    expect(created.body).toMatchObject({ name: 'python', catalogTier: 'BASE', sync_config: body.sync_config, customOverlay: body.customOverlay });
    const put = await h.dev('PUT', `/registry/v1/repos/${created.body.id}`, { body: { name: 'python3', readme: '# hi' } });
    expect(put.body).toEqual({
      id: created.body.id,
      name: 'python3',
      catalogTier: 'UNKNOWN',
      bundles: [],
      readme: '# hi',
      aliases: [],
      createTime: created.body.createTime,
      activeTags: [],
      description: '',
    });
    const dup = await h.dev('POST', `/registry/v1/repos/${A}?prevent_existing=true`, { body: { name: 'python3' } });
    expect(dup.status).toBe(409);
    expect((await h.dev('POST', `/registry/v1/repos/${A}`, { body: { catalogTier: 'NOPE', name: 'x' } })).body.code).toBe(3);
  });

  it('lists tags with lastUpdated, and applies digest, name, updated_since and exclude_* filters', async () => {
    const names = async (q: string) =>
      ((await h.dev('GET', `/registry/v1/tags?uidp.children_of=${REPO_A}&${q}`)).body.items as { name: string }[]).map((t) => t.name).sort();
    expect(await names('')).toEqual(['1.0-20260101', '1.0-r2', 'latest', 'sha256-abc.sig']);
    expect(await names('exclude_referrers=true')).toEqual(['1.0-20260101', '1.0-r2', 'latest']);
    expect(await names('exclude_dates=true&exclude_epochs=true')).toEqual(['latest', 'sha256-abc.sig']);
    expect(await names('excludeReferrers=true&excludeDates=true&excludeEpochs=true')).toEqual(['latest']);
    expect(await names('digest=sha256:ccc')).toEqual(['1.0-20260101']);
    expect(await names('updated_since=2026-05-03T00:00:00Z')).toEqual(['1.0-20260101', '1.0-r2']);
    const latest = await h.dev('GET', `/registry/v1/tags?id=${childUid(REPO_A, 't-latest')}`);
    expect(latest.body.items).toEqual([
      { id: childUid(REPO_A, 't-latest'), name: 'latest', digest: 'sha256:aaa', lastUpdated: '2026-05-01T00:00:00Z', deprecated: false, bundles: [] },
    ]);
    expect((await h.dev('GET', '/registry/v1/tags?updated_since=yesterday')).body).toEqual(v1Error(3, /updated_since/));
  });

  it('creates a tag under its repo, PUT moves lastUpdated, deleting the repo removes its tags', async () => {
    const repo = await h.dev('POST', `/registry/v1/repos/${A}`, { body: { name: 'tmp' } });
    const tag = await h.dev('POST', `/registry/v1/tags/${repo.body.id}`, { body: { name: 'v1', digest: 'sha256:1' } });
    expect(tag.body.id).toMatch(new RegExp(`^${repo.body.id}/[0-9a-f]{16}$`));
    expect((await h.dev('POST', `/registry/v1/tags/${repo.body.id}`, { body: { name: '-bad' } })).body.code).toBe(3);
    clock += 1_000;
    const put = await h.dev('PUT', `/registry/v1/tags/${tag.body.id}`, { body: { name: 'v1', digest: 'sha256:2', deprecated: true } });
    expect(put.body).toMatchObject({ digest: 'sha256:2', deprecated: true });
    expect(Date.parse(put.body.lastUpdated) - Date.parse(tag.body.lastUpdated)).toBe(1_000);
    expect((await h.dev('DELETE', `/registry/v1/repos/${repo.body.id}`)).body).toEqual({});
    expect((await h.dev('GET', `/registry/v1/tags?id=${tag.body.id}`)).body.items).toEqual([]);
  });
});
