import { describe, expect, it } from 'vitest';
import { parseRollout } from '../../src/rollout/rollout-config.js';
import { RouteGuard } from '../../src/rollout/rollout-guard.js';
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
        allowOverride: true,
        salt: 'v2proxy',
        routes: [
          { resource: 'groups', operations: ['list', 'get'], native: 30, shadow: 0, noise: 0, ignore: [], relativeThreshold: 20, absoluteThreshold: 0.03 },
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
        'routes[0].resource: unknown resource "grups"; known: groupInvites, groups; routes[1].operations: groupInvites has no update; it has list, get, create, delete',
    });
    expect(parseRollout('routes:\n  - resource: groups\n    operations: [list]\n', known)).toMatchObject({ ok: true });
  });

  it('names the first problem by its path', () => {
    expect(parseRollout('routes:\n  - resource: groups\n    native: 130\n')).toEqual({ ok: false, error: 'routes[0].native: must be at most 100' });
    expect(parseRollout('routes:\n  - resource: groups\n    operations: [list, patch]\n')).toEqual({
      ok: false,
      error: 'routes[0].operations[1]: must be one of list, get, create, update, delete',
    });
    expect(parseRollout('stickyBy: cookie')).toEqual({ ok: false, error: 'stickyBy: must be subject, token or header:<name>' });
    expect(parseRollout('killswitch: true')).toMatchObject({ ok: false, error: expect.stringMatching(/^\(top level\): .*killswitch/) });
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

  it('rolls back when the failure share in the window passes the threshold, with enough requests, then restores after the cooldown', () => {
    const g = new RouteGuard();
    expect(g.record(guard, true, 0)).toBe(false); // 1 of 1 failed, but fewer than minRequests
    expect(g.record(guard, false, 1000)).toBe(false);
    expect(g.record(guard, false, 2000)).toBe(false);
    expect(g.record(guard, false, 3000)).toBe(false); // 1/4 = 0.25: not above
    expect(g.record(guard, true, 4000)).toBe(true); // 2/5 = 0.4
    expect(g.isRolledBack(4000)).toBe(true);
    expect(g.isRolledBack(63_999)).toBe(true);
    expect(g.isRolledBack(64_000)).toBe(false);
    expect(g.rollbacks).toBe(1);
  });

  it('forgets outcomes older than the window', () => {
    const g = new RouteGuard();
    for (let i = 0; i < 3; i += 1) g.record(guard, true, i);
    // 11 s later the three failures are out of the window
    for (let i = 0; i < 4; i += 1) expect(g.record(guard, false, 11_000 + i)).toBe(false);
    expect(g.window()).toEqual({ requests: 4, failures: 0 });
  });
});
