import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { TOKENS } from '../support/fixtures.js';
import { until } from '../support/until.js';
import { grpcV2 } from '../support/grpc-v2-call.js';
import { LogCapture, startProxy } from '../support/proxy-harness.js';
import { HAVE_REDIS, type RedisServer, startRedisServer } from '../support/redis-server.js';

const ADMIN = 'admin-token-of-the-teardown';
// the parts, last opened first: what uses a part is closed before it
const CLOSING_ORDER = [
  'admin',
  'gRPC doors',
  'REST doors',
  'pipeline',
  'shadowing',
  'fleet presence',
  'rollout',
  'backends',
  'stores',
  'telemetry',
  'rollout file reader',
];

const closedParts = (logs: LogCapture) =>
  logs.lines.flatMap((line) => {
    const m = /"msg":"shutdown: (.+) closed"/.exec(line);
    return m ? [m[1]] : [];
  });

/** The parts as docs/development.md lists them, in the order they open. */
function documentedParts(): string[] {
  const page = readFileSync(join(import.meta.dirname, '../../docs/development.md'), 'utf8');
  const from = page.indexOf('| Part | Opens | Closes |');
  const table = page.slice(from, page.indexOf('\n\n', from));
  return [...table.matchAll(/^\| ([a-zA-Z ]+) \|/gm)].map((m) => m[1] as string).filter((name) => name !== 'Part');
}

type Route = { resource: string; operation: string; compared: number; errors: number };
type TrafficRow = { resource: string; operation: string; sides: { translate: { served: number } } };

// Skipped only on a developer machine without redis-server; CI installs it and fails without it.
describe.skipIf(!HAVE_REDIS)('a replica shut down mid-traffic closes its parts in reverse dependency order (a real redis-server)', () => {
  let redis: RedisServer;
  let h: EmulatorHarness;
  let env: Record<string, string>;

  beforeAll(async () => {
    redis = await startRedisServer();
    h = await startHarness();
    const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-teardown-')), 'rollout.yaml');
    writeFileSync(file, 'routes:\n  - resource: identities\n    operations: [get]\n    shadow: 100\n    ignore: [createTime, updateTime]\n');
    env = { V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, ADMIN_TOKEN: ADMIN, REDIS_URL: redis.url };
  });
  afterAll(async () => {
    await h?.close();
    await redis?.stop();
  });

  it('docs/development.md lists the parts in the order they open', () => {
    expect(documentedParts()).toEqual([...CLOSING_ORDER].reverse());
  });

  it('shut down mid-traffic: shadow reads in flight finish before the native backend closes, and every request it answered reaches the fleet', async () => {
    const logs = new LogCapture();
    const replica = await startProxy({ ...env, LOG_LEVEL: 'debug' }, logs);
    const grpc = grpcV2(new URL(replica.url).host, TOKENS.alice);
    let other: RunningProxy | undefined;
    try {
      const uid = (await call(replica.url, 'GET', '/iam/v2beta1/identities?page_size=1', { token: TOKENS.alice })).body.identities[0].uid as string;
      // the native side slow to answer: shadow reads are under way when the shutdown begins
      await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/identities', delayMs: 300 }] } });
      const path = `/iam/v2beta1/identities/${uid}`;
      expect((await grpc.call('GET', path)).status).toBe(200);
      grpc.close();
      // reads until the listener refuses them: the last ones answered while it closes
      const statuses: number[] = [];
      let closing = false;
      const reads = (async () => {
        for (;;) {
          try {
            statuses.push((await call(replica.url, 'GET', path, { token: TOKENS.alice })).status);
          } catch (err) {
            // refused: the listener has closed
            if (closing) return;
            throw err;
          }
        }
      })();
      await until(
        async () => statuses.length,
        (n) => n > 5,
        'reads answered before the shutdown',
      );
      closing = true;
      await replica.close();
      await reads;
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(closedParts(logs)).toEqual(CLOSING_ORDER);
      expect(logs.text).not.toContain('could not be sent and are lost');
      // what the replica booked and counted in its last moments, as the fleet shows it
      other = await startProxy(env);
      const diff = (await call(other.url, 'GET', '/admin/diff.json', { token: ADMIN })).body.routes as Route[];
      const shadowed = diff.find((r) => r.resource === 'identities' && r.operation === 'get');
      expect(shadowed?.compared).toBeGreaterThanOrEqual(1);
      expect(shadowed?.errors).toBe(0);
      const traffic = (await call(other.url, 'GET', '/admin/rollout', { token: ADMIN })).body.traffic as TrafficRow[];
      // every read it answered (the gRPC one first), none lost to the shutdown
      expect(traffic.find((r) => r.resource === 'identities' && r.operation === 'get')?.sides.translate.served).toBe(statuses.length + 1);
    } finally {
      grpc.close();
      await h.dev('DELETE', '/__emulator/faults');
      await other?.close();
    }
  });

  it('with Redis frozen at the shutdown, the counts it cannot take are said lost in one line, and the replica still closes', async () => {
    const logs = new LogCapture();
    const replica = await startProxy({ ...env, REDIS_TIMEOUT_MS: '300', LOG_LEVEL: 'error' }, logs);
    try {
      const uid = (await call(replica.url, 'GET', '/iam/v2beta1/identities?page_size=1', { token: TOKENS.alice })).body.identities[0].uid as string;
      expect((await call(replica.url, 'GET', `/iam/v2beta1/identities/${uid}`, { token: TOKENS.alice })).status).toBe(200);
      await redis.paused();
      await replica.close();
    } finally {
      redis.resume();
    }
    const lost = logs.lines.filter((l) => l.includes('could not be sent and are lost'));
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(/[1-9]\d* operation-minutes? of the traffic figures/);
  });
});
