import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, DiffBook, reportOf } from '../../src/shadow/diff-book.js';
import { FleetDiffReport } from '../../src/shadow/fleet-diff-report.js';
import type { Difference } from '../../src/shadow/compare-answers.js';
import { HAVE_REDIS, type RedisServer, startRedisServer } from '../support/redis-server.js';

const diff = (path: string): Difference => ({ path, kind: 'value', primary: 'a', secondary: 'b' });

// Skipped only on a developer machine without redis-server; CI installs it and fails without it.
describe.skipIf(!HAVE_REDIS)("the fleet's diff report over a window (a real redis-server)", () => {
  let server: RedisServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.close();
  });

  it("two replicas' bookings, half an hour apart: the last 15 minutes show the recent ones only, the whole both; a reset empties every window", async () => {
    const fleet = new FleetDiffReport(redis, 'test:diff');
    // one replica booked half an hour ago, the other now (each book is what it had not sent yet)
    const earlier = new DiffBook({ sampleValues: false, now: () => Date.now() - 30 * 60_000 });
    const later = new DiffBook({ sampleValues: false });
    earlier.compared('groups', 'get', DEFAULT_THRESHOLDS, { requestId: 'earlier', url: '/g' }, [diff('description')]);
    earlier.error('groups', 'get');
    later.compared('groups', 'get', DEFAULT_THRESHOLDS, { requestId: 'later', url: '/g' }, [diff('description')]);
    later.compared('groups', 'get', DEFAULT_THRESHOLDS, { requestId: 'later-2', url: '/g' }, []);
    await fleet.add(earlier.drain());
    await fleet.add(later.drain());
    const route = async (window?: '15m' | '1h') => reportOf(await fleet.routes(window)).routes[0];
    expect(await route()).toMatchObject({ compared: 3, errors: 1 });
    expect(await route('1h')).toMatchObject({ compared: 3, errors: 1 });
    const recent = await route('15m');
    expect(recent).toMatchObject({ compared: 2, errors: 0, matched: expect.any(Number) });
    expect(recent?.fields.map((f) => [f.path, f.differences, f.samples.map((s) => s.requestId)])).toEqual([['description', 1, ['later']]]);
    await fleet.reset();
    expect(await fleet.routes('1h')).toEqual([]);
    expect(await fleet.routes()).toEqual([]);
    // nothing of the windows is left behind in Redis but the report's start
    expect((await redis.keys('test:diff*')).sort()).toEqual(['test:diff:since']);
  });
});
