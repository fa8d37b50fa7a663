import { describe, expect, it } from 'vitest';
import { compareAnswers, type Difference } from '../../src/shadow/compare-answers.js';
import { DEFAULT_THRESHOLDS, DiffBook, shortHash } from '../../src/shadow/diff-book.js';
import { renderReportHtml } from '../../src/shadow/render-report.js';

const ok = (body: unknown) => ({ status: 200, body });
const kinds = (d: Difference[]) => d.map((x) => `${x.path} ${x.kind}`);

describe('comparator', () => {
  it('finds nothing in equal answers, whatever the key order', () => {
    expect(compareAnswers(ok({ a: 1, b: { c: [1, 2] } }), ok({ b: { c: [1, 2] }, a: 1 }))).toEqual([]);
  });

  it('names each kind under its field path', () => {
    const a = { uid: 'u', name: 'x', identity: { name: 'n', issuer: 'i' }, size: 3, tags: ['a', 'b'], old: true };
    const b = { uid: 'u', name: 'y', identity: { name: 'n' }, size: '3', tags: ['b', 'a'], added: 1 };
    expect(kinds(compareAnswers(ok(a), ok(b)))).toEqual(['name value', 'identity.issuer missing', 'size type', 'tags order', 'old missing', 'added extra']);
    const [name] = compareAnswers(ok(a), ok(b));
    expect(name).toEqual({ path: 'name', kind: 'value', primary: 'x', secondary: 'y' });
  });

  it('compares statuses, and only the error code when both are errors', () => {
    expect(kinds(compareAnswers({ status: 200, body: {} }, { status: 404, body: { code: 5 } }))).toEqual(['status status']);
    expect(compareAnswers({ status: 404, body: { code: 5, message: 'Not found: a' } }, { status: 404, body: { code: 5, message: 'other words' } })).toEqual([]);
    expect(kinds(compareAnswers({ status: 400, body: { code: 3 } }, { status: 400, body: { code: 9 } }))).toEqual(['code value']);
  });

  it('matches list items on uid: missing, extra, count, order, and fields under `plural[]`', () => {
    const a = {
      groups: [
        { uid: '1', n: 'a' },
        { uid: '2', n: 'b' },
        { uid: '3', n: 'c' },
      ],
      totalCount: '3',
      nextPageToken: '',
    };
    const b = {
      groups: [
        { uid: '2', n: 'B' },
        { uid: '1', n: 'a' },
        { uid: '4', n: 'd' },
      ],
      totalCount: '3',
      nextPageToken: '',
    };
    expect(kinds(compareAnswers(ok(a), ok(b)))).toEqual(['groups[] missing', 'groups[] extra', 'groups order', 'groups[].n value']);
    const shorter = { ...a, groups: a.groups.slice(0, 2), totalCount: '2' };
    expect(kinds(compareAnswers(ok(a), ok(shorter)))).toEqual(['groups count', 'groups[] missing', 'totalCount value']);
  });

  it('treats page tokens as opaque: only whether there is a next page counts', () => {
    expect(compareAnswers(ok({ items: [], nextPageToken: 'abc' }), ok({ items: [], nextPageToken: 'xyz' }))).toEqual([]);
    expect(kinds(compareAnswers(ok({ nextPageToken: 'abc' }), ok({ nextPageToken: '' })))).toEqual(['nextPageToken value']);
  });

  it('leaves out ignored paths and everything below them, and reports one difference per path and kind', () => {
    const a = {
      groups: [
        { uid: '1', createTime: 't1', meta: { x: 1 } },
        { uid: '2', createTime: 't2', meta: { x: 1 } },
      ],
    };
    const b = {
      groups: [
        { uid: '1', createTime: 'T1', meta: { x: 2 } },
        { uid: '2', createTime: 'T2', meta: { x: 3 } },
      ],
    };
    expect(kinds(compareAnswers(ok(a), ok(b)))).toEqual(['groups[].createTime value', 'groups[].meta.x value']);
    expect(kinds(compareAnswers(ok(a), ok(b), ['groups[].createTime', 'groups[].meta']))).toEqual([]);
  });

  it('survives hostile bodies: very deep nesting is compared as a whole past 64 levels', () => {
    let deep: unknown = 1;
    let other: unknown = 2;
    for (let i = 0; i < 5000; i += 1) {
      deep = { a: deep };
      other = { a: other };
    }
    const d = compareAnswers(ok(deep), ok(other));
    expect(d).toHaveLength(1);
    expect(d[0]?.kind).toBe('value');
  });
});

describe('diff book: noise baseline, thresholds, bounded memory', () => {
  const diff = (path: string): Difference => ({ path, kind: 'value', primary: 'a', secondary: 'b' });

  it('hides a field that differs on every call of the same side as noise, and reports one that differs only across sides', () => {
    const book = new DiffBook({ sampleValues: false });
    for (let i = 0; i < 100; i += 1) {
      // the serving side asked twice differs on etag every time
      book.noise('groups', 'get', [diff('etag')]);
      book.compared('groups', 'get', DEFAULT_THRESHOLDS, { requestId: `r${i}`, url: '/g' }, [diff('etag'), ...(i % 2 === 0 ? [diff('name')] : [])]);
    }
    const [route] = book.report().routes;
    expect(route).toMatchObject({ resource: 'groups', operation: 'get', compared: 100 });
    expect(route?.fields.map((f) => [f.path, f.differences, f.noise, f.reported])).toEqual([
      ['name', 50, 0, true],
      ['etag', 100, 100, false],
    ]);
    // requests whose only difference is noise count as matched
    expect(route?.differed).toBe(50);
    expect(route?.matched).toBe(50);
  });

  it('applies the relative and the absolute threshold', () => {
    const book = new DiffBook({ sampleValues: false });
    const strict = { relative: 0.2, absolute: 0.05 };
    for (let i = 0; i < 100; i += 1) {
      const d = [...(i < 12 ? [diff('a')] : []), ...(i < 3 ? [diff('b')] : []), ...(i < 30 ? [diff('c')] : [])];
      book.compared('roles', 'list', strict, { requestId: String(i), url: '/r' }, d);
      if (i < 20) book.noise('roles', 'list', [diff('c')]);
    }
    const fields = Object.fromEntries(book.report().routes[0]?.fields.map((f) => [f.path, f.reported]) ?? []);
    // a: (12-0)/(12+0)=1 > .2 and 12/100 > .05 → reported; b: 3/100 < .05 → not;
    // c: (30-20)/(30+20) = .2, not above .2 → not
    expect(fields).toEqual({ a: true, b: false, c: false });
  });

  it('keeps at most 10 samples per path, as short hashes unless values are asked for, and a bounded number of paths', () => {
    const book = new DiffBook({ sampleValues: false, now: () => 1_000 });
    for (let i = 0; i < 50; i += 1) book.compared('tags', 'get', DEFAULT_THRESHOLDS, { requestId: `req-${i}`, url: `/t/${i}` }, [diff('name')]);
    const [field] = book.report().routes[0]?.fields ?? [];
    expect(field?.samples).toHaveLength(10);
    expect(field?.samples[0]).toEqual({ requestId: 'req-0', url: '/t/0', primary: shortHash('a'), secondary: shortHash('b'), at: 1_000 });
    expect(JSON.stringify(book.report())).not.toContain('"a"');
    const withValues = new DiffBook({ sampleValues: true });
    withValues.compared('tags', 'get', DEFAULT_THRESHOLDS, { requestId: 'r', url: '/t' }, [diff('name')]);
    expect(withValues.report().routes[0]?.fields[0]?.samples[0]).toMatchObject({ primaryValue: 'a', secondaryValue: 'b' });

    const many = new DiffBook({ sampleValues: false });
    for (let i = 0; i < 5000; i += 1) many.compared('groups', 'get', DEFAULT_THRESHOLDS, { requestId: 'r', url: '/g' }, [diff(`resourceLimits.k${i}`)]);
    const paths = many.report().routes[0]?.fields ?? [];
    expect(paths.length).toBeLessThanOrEqual(201);
    expect(paths.find((f) => f.path === '(other paths)')?.differences).toBe(4800);
  });

  it('sorts routes and fields worst first, counts errors and skips, and resets', () => {
    const book = new DiffBook({ sampleValues: false });
    book.compared('tags', 'list', DEFAULT_THRESHOLDS, { requestId: 'r', url: '/t' }, []);
    book.compared('groups', 'list', DEFAULT_THRESHOLDS, { requestId: 'r', url: '/g' }, [diff('x')]);
    book.error('groups', 'list');
    book.skipped('groups', 'create');
    expect(book.report().routes.map((r) => `${r.resource} ${r.operation}`)).toEqual(['groups list', 'groups create', 'tags list']);
    expect(book.report().routes[0]).toMatchObject({ compared: 1, differed: 1, errors: 1 });
    book.reset();
    expect(book.report()).toEqual({ routes: [] });
  });

  it('a window of the report: what was booked in its last 15 minutes or hour, with the samples booked then; a reset empties them all', () => {
    let now = Date.parse('2026-06-01T10:00:00Z');
    const book = new DiffBook({ sampleValues: false, now: () => now });
    const read = (id: string) => book.compared('groups', 'get', DEFAULT_THRESHOLDS, { requestId: id, url: '/g' }, [diff('description')]);
    read('long-ago');
    now += 30 * 60_000;
    read('half-an-hour-ago');
    book.error('groups', 'get');
    now += 40 * 60_000;
    read('now');
    const route = (window?: '15m' | '1h') => book.report(undefined, window).routes[0];
    expect(route()).toMatchObject({ compared: 3, errors: 1 });
    expect(route('1h')).toMatchObject({ compared: 2, errors: 1 });
    expect(route('15m')).toMatchObject({ compared: 1, errors: 0 });
    expect(route('15m')?.fields[0]?.samples.map((s) => s.requestId)).toEqual(['now']);
    expect(route('1h')?.fields[0]).toMatchObject({ path: 'description', differences: 2 });
    // a route that booked nothing in the window is not in it
    now += 20 * 60_000;
    expect(book.report(undefined, '15m').routes).toEqual([]);
    book.reset();
    expect(book.report(undefined, '1h').routes).toEqual([]);
  });

  it('renders a self-contained page that escapes what it shows', () => {
    const book = new DiffBook({ sampleValues: true });
    book.compared('groups', 'get', DEFAULT_THRESHOLDS, { requestId: '<script>x</script>', url: '/g?a=<b>' }, [
      { path: 'name', kind: 'value', primary: '<i>', secondary: '"q"' },
    ]);
    const html = renderReportHtml(book.report(), { title: 'report <1>', generatedAt: 'now' });
    expect(html).toMatch(/^<!doctype html>/);
    // nothing from elsewhere: the only links are to the page's own sections
    expect(html).not.toMatch(/<script|src=|href="[^#]|@import|url\(/i);
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(html).toContain('report &lt;1&gt;');
  });
});
