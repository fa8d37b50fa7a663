import { describe, expect, it, vi } from 'vitest';
import { apiError } from '../../src/errors/error-registry.js';
import { parseOrderBy } from '../../src/mapping/order-by.js';
import { parsePageParams } from '../../src/list/page-params.js';
import { PageTokenCodec, TOKEN_LIFETIME_MS } from '../../src/list/page-token.js';
import { SnapshotCache, itemCount, itemText, itemsText, snapshotOf } from '../../src/list/snapshot-cache.js';
import { seekAfter, sortItems, v2KeyFn } from '../../src/list/sorted-items.js';
import { until } from '../support/until.js';

const SORTABLE = { sortable: ['uid', 'name', 'createTime', 'updateTime'], defaultOrder: 'uid asc' };

describe('order_by', () => {
  it('reads AIP-132 lists with snake or camel names and always ends with uid', () => {
    const r = parseOrderBy('name desc, created_at', SORTABLE);
    expect(r).toEqual({
      ok: true,
      keys: [
        { field: ['name'], desc: true },
        { field: ['createTime'], desc: false },
        { field: ['uid'], desc: false },
      ],
      canonical: 'name desc,createTime asc,uid asc',
    });
    expect(parseOrderBy('createTime DESC', SORTABLE)).toMatchObject({ canonical: 'createTime desc,uid desc' });
    expect(parseOrderBy(undefined, { ...SORTABLE, defaultOrder: 'created_at desc' })).toMatchObject({ canonical: 'createTime desc,uid desc' });
    expect(parseOrderBy('uid desc', SORTABLE)).toMatchObject({ canonical: 'uid desc' });
    expect(parseOrderBy('group', { sortable: ['uid'], defaultOrder: 'uid', aliases: { group: 'uid' } })).toMatchObject({ canonical: 'uid asc' });
  });
  it('names order_by for unknown fields and bad syntax', () => {
    expect(parseOrderBy('colour', SORTABLE)).toEqual({
      ok: false,
      violation: { field: 'order_by', description: 'cannot sort by "colour"; sortable fields: uid, name, createTime, updateTime' },
    });
    expect(parseOrderBy('name sideways', SORTABLE)).toMatchObject({ ok: false, violation: { field: 'order_by' } });
    expect(parseOrderBy('name desc extra', SORTABLE)).toMatchObject({ ok: false });
    expect(parseOrderBy('name,,uid', SORTABLE)).toMatchObject({ ok: false });
  });
});

describe('page parameters', () => {
  const parse = (q: Record<string, string>) => parsePageParams(q);
  it('defaults, clamps and accepts both spellings', () => {
    expect(parse({})).toMatchObject({ ok: true, params: { pageSize: 50, skip: 0, pageToken: '' } });
    expect(parse({ page_size: '0' })).toMatchObject({ params: { pageSize: 50 } });
    expect(parse({ pageSize: '500' })).toMatchObject({ params: { pageSize: 200 } });
    expect(parse({ page_size: '7', skip: '3', orderBy: 'name' })).toMatchObject({ params: { pageSize: 7, skip: 3, orderBy: 'name' } });
  });
  it('names each bad parameter', () => {
    expect(parse({ page_size: '-1', skip: '-2' })).toEqual({
      ok: false,
      violations: [
        { field: 'page_size', description: 'page_size must not be negative' },
        { field: 'skip', description: 'skip must not be negative' },
      ],
    });
    expect(parse({ page_size: '1e3' })).toMatchObject({ ok: false, violations: [{ field: 'page_size' }] });
    // int32 fields of the request: the largest they hold is taken (page_size clamped), one more refused
    expect(parse({ page_size: '2147483647', skip: '2147483647' })).toMatchObject({ ok: true, params: { pageSize: 200, skip: 2_147_483_647 } });
    expect(parse({ page_size: '2147483648', skip: '9999999999' })).toEqual({
      ok: false,
      violations: [
        { field: 'page_size', description: 'page_size must be at most 2147483647' },
        { field: 'skip', description: 'skip must be at most 2147483647' },
      ],
    });
  });
});

describe('page tokens', () => {
  const codec = new PageTokenCodec('a-secret-of-sixteen+');
  const position = { binding: 'bind', after: ['n', 'uid-1'], issuedAt: 1_000_000 };

  it('are opaque, URL-safe and open only for their binding', () => {
    const token = codec.seal(position);
    expect(token).toMatch(/^[\w-]+$/);
    expect(token).not.toContain('uid-1');
    expect(codec.open(token, 'bind', 1_000_001)).toEqual({ ok: true, position });
    expect(codec.open(token, 'other', 1_000_001)).toEqual({ ok: false, reason: 'foreign' });
  });
  it('refuse tampering and other keys; report expiry after three days', () => {
    const token = codec.seal(position);
    const flipped = `${token.slice(0, 30)}${token[30] === 'A' ? 'B' : 'A'}${token.slice(31)}`;
    expect(codec.open(flipped, 'bind', 1_000_001)).toEqual({ ok: false, reason: 'malformed' });
    expect(new PageTokenCodec('another-secret-123456').open(token, 'bind', 1_000_001)).toEqual({ ok: false, reason: 'malformed' });
    expect(codec.open('short', 'bind', 0)).toEqual({ ok: false, reason: 'malformed' });
    expect(codec.open(token, 'bind', 1_000_000 + TOKEN_LIFETIME_MS + 1)).toEqual({ ok: true, expired: true });
  });
});

describe('sorting and seeking', () => {
  const items = [{ uid: 'c', name: 'b' }, { uid: 'a', name: 'b' }, { uid: 'b' }, { uid: 'd', name: 'a' }];
  it('sorts with absent values first and ties broken by uid, either way', () => {
    const asc = parseOrderBy('name', SORTABLE);
    if (!asc.ok) throw new Error('order');
    expect(sortItems(items, asc.keys, v2KeyFn(asc.keys)).map((i) => i.uid)).toEqual(['b', 'd', 'a', 'c']);
    const desc = parseOrderBy('name desc', SORTABLE);
    if (!desc.ok) throw new Error('order');
    const sorted = sortItems(items, desc.keys, v2KeyFn(desc.keys));
    expect(sorted.map((i) => i.uid)).toEqual(['c', 'a', 'd', 'b']);
    // seeking after a key that no longer exists lands on the next one in order
    expect(seekAfter(sorted.length, ['b', 'b'], desc.keys, (i) => v2KeyFn(desc.keys)(sorted[i] as Record<string, unknown>))).toBe(1);
    expect(seekAfter(sorted.length, ['b', 'a'], desc.keys, (i) => v2KeyFn(desc.keys)(sorted[i] as Record<string, unknown>))).toBe(2);
    expect(seekAfter(sorted.length, ['z', 'z'], desc.keys, (i) => v2KeyFn(desc.keys)(sorted[i] as Record<string, unknown>))).toBe(0);
    expect(seekAfter(sorted.length, [null, 'b'], desc.keys, (i) => v2KeyFn(desc.keys)(sorted[i] as Record<string, unknown>))).toBe(4);
    const byUid = parseOrderBy('uid desc', SORTABLE);
    if (!byUid.ok) throw new Error('order');
    expect(sortItems(items, byUid.keys, v2KeyFn(byUid.keys)).map((i) => i.uid)).toEqual(['d', 'c', 'b', 'a']);
  });
  it('sorts by one string key either way, keeping equal values in their order, and by any key type', () => {
    const asc = [{ field: ['k'], desc: false }];
    const desc = [{ field: ['k'], desc: true }];
    const rows = [
      { k: 'b', n: 1 },
      { k: 'a', n: 2 },
      { k: 'b', n: 3 },
      { k: 'ab', n: 4 },
      { k: 'B', n: 5 },
    ];
    expect(sortItems(rows, asc, v2KeyFn(asc)).map((r) => r.n)).toEqual([5, 2, 4, 1, 3]);
    expect(sortItems(rows, desc, v2KeyFn(desc)).map((r) => r.n)).toEqual([1, 3, 4, 2, 5]);
    // a value that is not a string: absent first, then numbers, then strings
    const mixed = [{ k: 'x', n: 1 }, { k: 2, n: 2 }, { n: 3 }, { k: 1, n: 4 }];
    expect(sortItems(mixed, asc, v2KeyFn(asc)).map((r) => r.n)).toEqual([3, 4, 2, 1]);
  });
});

describe('snapshot cache', () => {
  const snapshot = (n: number) => ({ ...snapshotOf(1, () => `{"n":${n}}`, 0), bytes: 10 });
  it('shares one load among identical concurrent requests and keeps it for the TTL', async () => {
    const cache = new SnapshotCache({ ttlMs: 60_000, maxBytes: 1000 });
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 10));
      return snapshot(loads);
    };
    const all = await Promise.all(Array.from({ length: 10 }, () => cache.get('alice|groups|q', load)));
    expect(loads).toBe(1);
    expect(new Set(all).size).toBe(1);
    await cache.get('alice|groups|q', load);
    expect(loads).toBe(1);
    await cache.get('bob|groups|q', load);
    expect(loads).toBe(2);
    cache.invalidate('alice|groups|', 'groups');
    await cache.get('alice|groups|q', load);
    expect(loads).toBe(3);
  });
  it('with TTL 0 still coalesces in-flight loads but keeps nothing; a failed load is not kept', async () => {
    const cache = new SnapshotCache({ ttlMs: 0, maxBytes: 1000 });
    let loads = 0;
    const load = async () => {
      loads += 1;
      return snapshot(loads);
    };
    await Promise.all([cache.get('k', load), cache.get('k', load)]);
    await cache.get('k', load);
    expect(loads).toBe(2);
    await expect(cache.get('x', async () => Promise.reject(new Error('v1 down')))).rejects.toThrow('v1 down');
    expect(itemText(await cache.get('x', load), 0)).toBe('{"n":3}');
  });
  it('a request that joined a load under way, which then found v1 unavailable, gets one load of its own (the first caller gets the failure)', async () => {
    const cache = new SnapshotCache({ ttlMs: 0, maxBytes: 1000 });
    const loads: { resolve: (s: ReturnType<typeof snapshot>) => void; reject: (e: unknown) => void }[] = [];
    const load = () => new Promise<ReturnType<typeof snapshot>>((resolve, reject) => loads.push({ resolve, reject }));
    const first = cache.get('k', load);
    first.catch(() => undefined);
    const joined = [cache.get('k', load), cache.get('k', load)];
    expect(loads).toHaveLength(1);
    // the shared load spent its retries before the others came: they try again, together
    loads[0]?.reject(apiError('BACKEND_UNREACHABLE', { backend: 'v1' }));
    await expect(first).rejects.toMatchObject({ code: 14 });
    await until(
      async () => loads.length,
      (n) => n === 2,
      'a second load',
    );
    // a request joining the second load now gets its own second chance too; those on their second do not
    const late = cache.get('k', load);
    loads[1]?.resolve(snapshot(2));
    expect((await Promise.all(joined)).map((s) => itemText(s, 0))).toEqual(['{"n":2}', '{"n":2}']);
    expect(itemText(await late, 0)).toBe('{"n":2}');
    // twice unavailable in a row, or any other failure: it is the answer
    const codes = async (ps: Promise<unknown>[]) =>
      (await Promise.allSettled(ps)).map((r) => (r.status === 'rejected' ? (r.reason as { code?: number }).code : 'ok'));
    const again = codes([cache.get('j', load), cache.get('j', load)]);
    loads[2]?.reject(apiError('BACKEND_UNREACHABLE', { backend: 'v1' }));
    await until(
      async () => loads.length,
      (n) => n === 4,
      'a second load of j',
    );
    loads[3]?.reject(apiError('BACKEND_UNREACHABLE', { backend: 'v1' }));
    expect(await again).toEqual([14, 14]);
    const notFound = codes([cache.get('n', load), cache.get('n', load)]);
    loads[4]?.reject(apiError('NOT_FOUND', { resource: 'groups', uid: 'x' }));
    expect(await notFound).toEqual([5, 5]);
    expect(loads).toHaveLength(5);
  });
  it('frees an expired snapshot when its TTL ends, with no further request', async () => {
    vi.useFakeTimers();
    try {
      // (lru-cache reads a start time of 0 as "no TTL", so the clock starts later)
      let clock = 1_000_000;
      const cache = new SnapshotCache({ ttlMs: 1_000, maxBytes: 1000, now: () => clock });
      await cache.get('alice|groups|q', async () => snapshot(1));
      clock += 999;
      vi.advanceTimersByTime(999);
      expect(cache.size).toBe(1);
      clock += 2;
      vi.advanceTimersByTime(2);
      expect(cache.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
  it('clear drops every snapshot and its expiry timer (a closed app holds nothing until a TTL ends)', async () => {
    vi.useFakeTimers();
    try {
      const cache = new SnapshotCache({ ttlMs: 60_000, maxBytes: 1000, now: () => 1_000_000 });
      await cache.get('alice|groups|q', async () => snapshot(1));
      await cache.get('bob|groups|q', async () => snapshot(2));
      expect(vi.getTimerCount()).toBeGreaterThan(0);
      cache.clear();
      expect(cache.size).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
  it('keeps the item texts comma-separated, cuts any run of them as one page, and sizes them as V8 stores them', () => {
    const texts = ['{"a":1}', '{}', '{"b":"x"}'];
    const s = snapshotOf(texts.length, (k) => texts[k] as string, 0);
    expect([0, 1, 2].map((i) => itemText(s, i))).toEqual(['{"a":1}', '{}', '{"b":"x"}']);
    expect(itemCount(s)).toBe(3);
    expect(itemsText(s, 0, 3)).toBe('{"a":1},{},{"b":"x"}');
    expect(itemsText(s, 1, 3)).toBe('{},{"b":"x"}');
    expect(itemsText(s, 2, 2)).toBe('');
    expect(JSON.parse(`[${itemsText(s, 0, 2)}]`)).toEqual([{ a: 1 }, {}]);
    expect(s.bytes).toBe(20 + 3 * 4);
    // one character beyond Latin-1 makes the whole string two bytes a character
    const wide = ['{"a":"é"}', '{"b":"€"}'];
    expect(snapshotOf(wide.length, (k) => wide[k] as string, 0).bytes).toBe(2 * 19 + 2 * 4);
  });
  it('offers a kept snapshot by its source only while the cache keeps it, and stops after a write to its resource', async () => {
    vi.useFakeTimers();
    try {
      let clock = 1_000_000;
      const cache = new SnapshotCache({ ttlMs: 1_000, maxBytes: 25, now: () => clock });
      const made =
        (source: string, bytes = 10) =>
        async () => ({ ...snapshotOf(1, () => '{"n":1}', 0, source), bytes });
      const kept = await cache.get('alice|groups|q', made('groups|q|uid|d1'));
      expect(cache.sameSource('groups|q|uid|d1')).toBe(kept);
      expect(cache.sameSource('groups|q|uid|d2')).toBeUndefined();
      // another caller's copy does not take its place: when alice's goes, so does the offer
      await cache.get('bob|groups|q', async () => ({ ...kept, checkedAt: 5 }));
      cache.delete('alice|groups|q');
      expect(cache.sameSource('groups|q|uid|d1')).toBeUndefined();
      // expired, evicted for the byte bound, or never kept (too large): not offered
      await cache.get('carol|groups|q', made('groups|q|uid|d3'));
      clock += 1_001;
      vi.advanceTimersByTime(1_001);
      expect(cache.sameSource('groups|q|uid|d3')).toBeUndefined();
      await cache.get('a|groups|q', made('groups|q|uid|d4'));
      await cache.get('b|groups|q', made('groups|q|uid|d5'));
      await cache.get('c|groups|q', made('groups|q|uid|d6'));
      expect(cache.sameSource('groups|q|uid|d4')).toBeUndefined();
      expect(cache.sameSource('groups|q|uid|d6')).toBeDefined();
      await cache.get('d|groups|q', made('groups|q|uid|d7', 1_000));
      expect(cache.sameSource('groups|q|uid|d7')).toBeUndefined();
      // a write to groups by anyone ends the sharing of groups, not of roles
      await cache.get('e|roles|q', made('roles|q|uid|d8'));
      cache.invalidate('zed|groups|', 'groups');
      expect(cache.sameSource('groups|q|uid|d6')).toBeUndefined();
      expect(cache.sameSource('roles|q|uid|d8')).toBeDefined();
    } finally {
      vi.useRealTimers();
    }
  });
  it('never keeps more bytes than its bound', async () => {
    const cache = new SnapshotCache({ ttlMs: 60_000, maxBytes: 25 });
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => snapshot(1));
    expect(cache.size).toBe(2);
    await cache.get('huge', async () => ({ ...snapshot(1), bytes: 1000 }));
    expect(cache.size).toBe(2);
  });
});
