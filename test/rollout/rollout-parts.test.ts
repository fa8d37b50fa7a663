import { describe, expect, it } from 'vitest';
import { parseRollout } from '../../src/rollout/rollout-config.js';
import { guardVerdict } from '../../src/rollout/guard-accountant.js';
import { MemoryGuardCounters } from '../../src/stores/memory-guard-counters.js';
import { bucketOf, inNativeShare, jwtSubject, stickyKeyOf } from '../../src/rollout/sticky-bucket.js';

const jwt = (claims: object) => `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;

describe('rollout file', () => {
  it('reads YAML and JSON with the documented defaults', () => {
    const yaml = parseRollout('routes:\n  - resource: groups\n    operations: [list, get]\n    native: 30\n');
    expect(yaml).toEqual({
      ok: true,
      config: {
        killSwitch: false,
        stickyBy: 'subject',
        allowOverride: false,
        salt: 'v2proxy',
        routes: [
          {
            resource: 'groups',
            operations: ['list', 'get'],
            native: 30,
            shadow: 0,
            noise: 0,
            verifyWrites: 0,
            ignore: [],
            relativeThreshold: 20,
            absoluteThreshold: 0.03,
          },
        ],
      },
    });
    const json = parseRollout('{"killSwitch": true, "routes": [{"resource": "*"}], "guard": {"minRequests": 5}}');
    expect(json.ok && json.config).toMatchObject({
      killSwitch: true,
      routes: [{ resource: '*', operations: ['list', 'get', 'create', 'update', 'delete'], native: 0 }],
      guard: { windowSeconds: 30, minRequests: 5, maxErrorRate: 0.05, cooldownSeconds: 60 },
    });
    expect(parseRollout('')).toMatchObject({ ok: true, config: { routes: [] } });
  });

  it('names every problem by its path, and routes naming a resource or operation that does not exist', () => {
    expect(parseRollout('routes:\n  - resource: groups\n    native: 130\n    shadow: -1\nguard:\n  maxErrorRate: 2\n')).toEqual({
      ok: false,
      error: 'routes[0].native: must be at most 100; routes[0].shadow: must be at least 0; guard.maxErrorRate: Too big: expected number to be <=1',
    });
    const known = new Map([
      ['groups', ['list', 'get', 'create', 'update', 'delete'] as const],
      ['groupInvites', ['list', 'get', 'create', 'delete'] as const],
    ]);
    expect(parseRollout('routes:\n  - resource: grups\n  - resource: groupInvites\n    operations: [list, update]\n  - resource: "*"\n', known)).toEqual({
      ok: false,
      error:
        'routes[0].resource: not a known resource; known: groupInvites, groups; routes[1].operations: groupInvites has no update; it has list, get, create, delete',
    });
    expect(parseRollout('routes:\n  - resource: groups\n    operations: [list]\n', known)).toMatchObject({ ok: true });
  });

  it('names the first problem by its path', () => {
    expect(parseRollout('routes:\n  - resource: groups\n    native: 130\n')).toEqual({ ok: false, error: 'routes[0].native: must be at most 100' });
    expect(parseRollout('routes:\n  - resource: groups\n    operations: [list, patch]\n')).toEqual({
      ok: false,
      error: 'routes[0].operations[1]: is not one of list, get, create, update, delete',
    });
    expect(parseRollout('stickyBy: cookie')).toEqual({ ok: false, error: 'stickyBy: must be subject, token or header:<name>' });
    expect(parseRollout('killswitch: true')).toEqual({ ok: false, error: 'killswitch: not a key of the rollout file' });
    expect(parseRollout('routes: [')).toMatchObject({ ok: false, error: expect.stringMatching(/^not YAML or JSON: /) });
    expect(parseRollout('- 1\n- 2')).toMatchObject({ ok: false, error: expect.stringMatching(/^\(top level\): /) });
  });
});

describe('sticky buckets', () => {
  const keys = Array.from({ length: 4000 }, (_, i) => `s:caller-${i}`);

  it('puts about the configured share of callers on native', () => {
    for (const percent of [0, 30, 100]) {
      const native = keys.filter((k) => inNativeShare(bucketOf('salt', 'groups|list', k), percent)).length;
      if (percent === 0) expect(native).toBe(0);
      else if (percent === 100) expect(native).toBe(keys.length);
      // binomial(4000, 0.3): ±4.5 standard deviations
      else expect(Math.abs(native / keys.length - 0.3)).toBeLessThan(0.033);
    }
  });

  it('gives a caller the same bucket in every process and every version: the buckets of these callers are pinned', () => {
    // a change of the hashing would move callers between sides mid-rollout; these values must never change
    expect(bucketOf('salt', 'groups|list', 's:x')).toBe(2273);
    expect(bucketOf('v2proxy', 'groups|list,get', 's:user-1')).toBe(5806);
    expect(bucketOf('v2proxy', 'roles|list', 't:opaque-token')).toBe(9873);
  });

  it('only adds callers when the share grows, and buckets each route independently', () => {
    const at = (percent: number, route = 'groups|list') => new Set(keys.filter((k) => inNativeShare(bucketOf('salt', route, k), percent)));
    let previous = at(0);
    for (const percent of [5, 10, 30, 50, 75, 100]) {
      const now = at(percent);
      for (const k of previous) expect(now.has(k)).toBe(true);
      previous = now;
    }
    const groups = at(30);
    const roles = at(30, 'roles|list');
    const both = [...groups].filter((k) => roles.has(k)).length;
    // independent routes overlap on about 30% of 30%, not on all of it
    expect(both / keys.length).toBeGreaterThan(0.06);
    expect(both / keys.length).toBeLessThan(0.12);
    // another salt reshuffles
    expect(bucketOf('other', 'groups|list', 's:x')).not.toBe(bucketOf('salt', 'groups|list', 's:x'));
  });

  it('keys a caller by its JWT subject, its token, or a header', () => {
    const token = jwt({ sub: 'user-1', iss: 'https://issuer' });
    expect(jwtSubject(token)).toBe('user-1');
    expect(stickyKeyOf('subject', { authorization: `Bearer ${token}` })).toBe('s:user-1');
    // two tokens of one subject are one caller
    expect(stickyKeyOf('subject', { authorization: `Bearer ${jwt({ sub: 'user-1', iat: 2 })}` })).toBe('s:user-1');
    expect(stickyKeyOf('subject', { authorization: 'Bearer opaque-token' })).toBe('t:opaque-token');
    expect(stickyKeyOf('subject', { authorization: `Bearer ${jwt({ iss: 'x' })}` })).toMatch(/^t:/);
    expect(stickyKeyOf('subject', { authorization: 'Bearer a.!!!.c' })).toBe('t:a.!!!.c');
    expect(stickyKeyOf('token', { authorization: `Bearer ${token}` })).toBe(`t:${token}`);
    expect(stickyKeyOf('header:X-Tenant', { 'x-tenant': 'acme' })).toBe('h:acme');
    expect(stickyKeyOf('subject', {})).toBe('t:');
  });
});

describe('route guard', () => {
  const guard = { windowSeconds: 10, minRequests: 4, maxErrorRate: 0.25, cooldownSeconds: 60 };
  const window = (now: number) => ({ bucketMs: 1_000, buckets: 10, now });
  const one = (failed: boolean, generation = 0) => ({ route: 'groups|list', generation, kind: 'native' as const, total: 1, failed: failed ? 1 : 0 });

  it('trips when the failure share of the window passes the threshold, with enough requests', async () => {
    const counters = new MemoryGuardCounters();
    const seen = [];
    for (const [i, failed] of [true, false, false, false, true].entries()) {
      const [w] = await counters.tally([one(failed)], window(i * 1000));
      seen.push(w && guardVerdict(w, guard) !== undefined);
    }
    // 1 of 1 (fewer than minRequests), …, 1 of 4 (0.25: not above), 2 of 5
    expect(seen).toEqual([false, false, false, false, true]);
    const [w] = await counters.tally([], window(4000)).then(async () => counters.tally([{ ...one(false), total: 0 }], window(4000)));
    expect(guardVerdict(w as never, guard)?.figures).toMatchObject({ requests: 5, failed: 2, rate: 0.4, limit: 0.25 });
  });

  it('forgets outcomes older than the window, and counts each generation (after a rollback) afresh', async () => {
    const counters = new MemoryGuardCounters();
    for (let i = 0; i < 3; i += 1) await counters.tally([one(true)], window(i));
    // 11 s later the three failures are out of the window
    const [later] = await counters.tally([one(false)], window(11_000));
    expect(later).toMatchObject({ total: 1, failed: 0 });
    const [fresh] = await counters.tally([one(true, 1)], window(11_000));
    expect(fresh).toMatchObject({ total: 1, failed: 1 });
  });

  it('judges the diff trigger only when the file sets maxDiffRate', () => {
    const w = { kind: 'diff' as const, total: 10, failed: 9 };
    expect(guardVerdict(w, guard)).toBeUndefined();
    expect(guardVerdict(w, { ...guard, maxDiffRate: 0.5 })?.why).toMatch(/^share of reads with a reported difference 0.9 above 0.5/);
  });
});
