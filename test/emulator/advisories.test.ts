import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, B, TOKENS, childUid } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness, v1Error } from '../support/emulator-harness.js';

const ADV = (n: string) => childUid(A, `adv-${n}`);

describe('emulator: /vulnerabilities/v1/advisories (v1 list with its own paging)', () => {
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  const ids = (body: { items: { id: string }[] }) => body.items.map((a) => a.id);

  it('answers {id, items, nextPageToken, totalCount} with v1 field names', async () => {
    const res = await h.dev('GET', `/vulnerabilities/v1/advisories?uidp.children_of=${A}&advisory_ids=CGA-2`);
    expect(res.body).toEqual({
      id: A,
      items: [
        {
          id: ADV('2'),
          artifactType: 'package',
          artifactName: 'zlib',
          artifactArchitecture: '',
          aliases: ['CVE-2', 'GHSA-2'],
          events: [
            {
              id: expect.stringMatching(new RegExp(`^${ADV('2')}/[0-9a-f]{16}$`)),
              timestamp: '2026-01-01T00:00:00Z',
              author: 'human',
              reviewer: 'lead',
              status: 'APPROVED',
              fixed: { fixedVersion: '1.2' },
            },
          ],
          advisoryId: 'CGA-2',
          author: '',
          componentName: 'libz',
          legacyAdvisoryID: 'LEG-2',
          createdAt: '2026-01-01T00:00:00Z',
          updatedAt: '2026-03-01T00:00:00Z',
        },
      ],
      nextPageToken: '',
      totalCount: '1',
    });
  });

  it('pages with page_size / page_token and orders by the v1 enum', async () => {
    const first = await h.dev('GET', `/vulnerabilities/v1/advisories?uidp.children_of=${A}&page_size=2&order_by=CREATED_AT_ASC`);
    expect(ids(first.body)).toEqual([ADV('2'), ADV('1')]);
    expect(first.body.totalCount).toBe('3');
    expect(first.body.nextPageToken).not.toBe('');
    const second = await h.dev(
      'GET',
      `/vulnerabilities/v1/advisories?uidp.children_of=${A}&page_size=2&order_by=CREATED_AT_ASC&page_token=${first.body.nextPageToken}`,
    );
    expect(ids(second.body)).toEqual([ADV('3')]);
    expect(second.body.nextPageToken).toBe('');
    const desc = await h.dev('GET', `/vulnerabilities/v1/advisories?uidp.children_of=${A}&order_by=UPDATED_AT_DESC`);
    expect(ids(desc.body)).toEqual([ADV('3'), ADV('2'), ADV('1')]);
    expect((await h.dev('GET', '/vulnerabilities/v1/advisories?order_by=name')).body).toEqual(v1Error(3, /order_by/));
    expect((await h.dev('GET', '/vulnerabilities/v1/advisories?page_token=garbage')).body).toEqual(v1Error(3, 'invalid page_token'));
  });

  it('applies artifact, alias, event and id filters', async () => {
    const q = async (query: string) => ids((await h.dev('GET', `/vulnerabilities/v1/advisories?uidp.descendants_of=${A}&${query}`)).body).sort();
    expect(await q('artifact_name=openssl&artifact_name=curl')).toEqual([ADV('1'), ADV('3')].sort());
    expect(await q('aliases=GHSA-2')).toEqual([ADV('2')]);
    expect(await q('component_name=libz')).toEqual([ADV('2')]);
    expect(await q('event_statuses=PENDING')).toEqual([ADV('1')]);
    expect(await q('event_author=human')).toEqual([ADV('2')]);
    expect(await q('event_reviewer=lead')).toEqual([ADV('2')]);
    expect(await q('exclude_event_author=scanner')).toEqual([ADV('2'), ADV('3')].sort());
    expect(await q('event_types=EVENT_TYPE_FILTER_FIXED')).toEqual([ADV('2')]);
    expect(await q('latest_event_type=EVENT_TYPE_FILTER_DETECTION')).toEqual([ADV('1')]);
    expect(await q('legacy_advisory_ids=LEG-2')).toEqual([ADV('2')]);
    expect(await q(`id=${ADV('3')}`)).toEqual([ADV('3')]);
  });

  it('creates with {parentId, advisory}, replaces with PUT (createdAt kept), deletes with {}', async () => {
    const created = await h.dev('POST', '/vulnerabilities/v1/advisories', {
      body: {
        parentId: B,
        advisory: { advisoryId: 'CGA-9', artifactName: 'git', aliases: ['CVE-9'], events: [{ status: 'PENDING', author: 'me', detection: { manual: {} } }] },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: expect.stringMatching(new RegExp(`^${B}/[0-9a-f]{16}$`)), advisoryId: 'CGA-9', artifactName: 'git' });
    expect(created.body.createdAt).toBe(created.body.updatedAt);
    expect(created.body.events[0]).toMatchObject({ status: 'PENDING', author: 'me', timestamp: expect.stringMatching(/Z$/) });
    const put = await h.dev('PUT', `/vulnerabilities/v1/advisories/${created.body.id}`, { body: { advisoryId: 'CGA-9', artifactName: 'git2' } });
    expect(put.body).toMatchObject({ artifactName: 'git2', aliases: [], events: [], createdAt: created.body.createdAt });
    expect((await h.dev('DELETE', `/vulnerabilities/v1/advisories/${created.body.id}`)).body).toEqual({});
    expect((await h.dev('POST', '/vulnerabilities/v1/advisories', { body: { parentId: 'nope', advisory: {} } })).body.code).toBe(3);
  });

  it('shows a tenant only its own advisories', async () => {
    const res = await h.call('GET', '/vulnerabilities/v1/advisories', { token: TOKENS.bob });
    expect(ids(res.body)).toEqual([childUid(B, 'adv-b')]);
    expect(res.body.totalCount).toBe('1');
  });
});
