import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, A_TEAM, TOKENS } from '../support/fixtures.js';
import { LogCapture, startProxy } from '../support/proxy-harness.js';
import { until } from '../support/until.js';

const PROTO = join(import.meta.dirname, '../../proto');
const definition = protoLoader.loadSync(['chainguard/platform/iam/v2beta1/groups.proto'], { includeDirs: [PROTO], longs: String, enums: String, oneofs: true });
const iam = (grpc.loadPackageDefinition(definition) as any).chainguard.platform.iam.v2beta1;

const ADMIN = 'admin-token-for-evidence-outcomes';
// a guard that trips after 10 native answers of which over a fifth failed
const GUARD = 'guard:\n  windowSeconds: 60\n  minRequests: 10\n  maxErrorRate: 0.2\n  cooldownSeconds: 600\n';
const GUARDED_GETS = `routes:\n  - resource: groups\n    operations: [get]\n    native: 100\n${GUARD}`;

/**
 * What the guard and the analysis count: only a backend's failure counts against a side, only a
 * side's answer for it. Live, on the emulator's v1 and native surfaces.
 */
describe('evidence the rollout can trust: outcomes, live', () => {
  let h: EmulatorHarness;
  let proxy: RunningProxy;
  let file: string;
  let logs: LogCapture;
  let closed = false;

  const admin = (method: string, path: string) => call(proxy.url, method, path, { token: ADMIN });
  const status = async () => (await admin('GET', '/admin/rollout')).body;
  const metrics = async () => (await call(proxy.url, 'GET', '/metrics')).body as string;
  const reload = async (yaml: string) => {
    writeFileSync(file, yaml);
    const res = await admin('POST', '/admin/rollout/reload');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const count = (text: string, labels: RegExp) =>
    text
      .split('\n')
      .filter((l) => l.startsWith('v2proxy_requests_total{') && labels.test(l))
      .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);

  beforeAll(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'v2proxy-evidence-')), 'rollout.yaml');
    writeFileSync(file, 'routes: []\n');
    h = await startHarness();
  });
  beforeEach(async () => {
    await h.dev('DELETE', '/__emulator/faults');
    logs = new LogCapture();
    closed = false;
    // (a drain gives what still runs a second)
    proxy = await startProxy(
      {
        V1_BASE_URL: h.url,
        V2_BASE_URL: h.v2url,
        ROLLOUT_FILE: file,
        ADMIN_TOKEN: ADMIN,
        LOG_LEVEL: 'info',
        SHUTDOWN_DELAY_MS: '0',
        SHUTDOWN_TIMEOUT_MS: '1000',
        V2_ATTEMPT_TIMEOUT_MS: '10000',
        V2_TIMEOUT_MS: '10000',
      },
      logs,
    );
  });
  afterEach(async () => {
    if (!closed) await proxy.close();
  });
  afterAll(() => h?.close());

  it('gRPC clients whose 100 ms deadline is below the native side’s 300 ms: no failure counted, no rollback, the deadlines counted as such', async () => {
    await reload(GUARDED_GETS);
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/groups', delayMs: 300 }] } });
    const client = new iam.GroupsService(new URL(proxy.url).host, grpc.credentials.createInsecure());
    const codes: number[] = [];
    try {
      // 60 calls, 10 at a time: six times the guard's minimum, every one past its deadline
      for (let round = 0; round < 6; round += 1) {
        await Promise.all(
          Array.from(
            { length: 10 },
            () =>
              new Promise<void>((resolve) => {
                const metadata = new grpc.Metadata();
                metadata.set('authorization', TOKENS.alice);
                client.GetGroup({ uid: A_TEAM }, metadata, { deadline: Date.now() + 100 }, (err: grpc.ServiceError | null) => {
                  codes.push(err?.code ?? 0);
                  resolve();
                });
              }),
          ),
        );
      }
    } finally {
      client.close();
    }
    expect(codes).toEqual(Array(60).fill(grpc.status.DEADLINE_EXCEEDED));
    // each counted once, as stopped by its client: past its deadline (or, the client's timer firing
    // a moment before the proxy reads it, cancelled at it), never a native failure
    const deadline = /protocol="grpc",resource="groups",operation="get",backend="native",status="504",outcome="deadline"/;
    const cancelled = /protocol="grpc",resource="groups",operation="get",backend="native",status="499",outcome="cancelled"/;
    const text = await until(
      () => metrics(),
      (t) => count(t, deadline) + count(t, cancelled) === 60,
      'the 60 calls counted as stopped by their clients',
    );
    expect(count(text, deadline)).toBeGreaterThanOrEqual(45);
    expect(count(text, /resource="groups",operation="get",backend="native".*outcome="backend_failure"/)).toBe(0);
    const route = (await status()).routes[0];
    expect(route).toMatchObject({ rolledBack: false, rollbacks: 0, window: { requests: 0, failures: 0 } });
    expect(logs.text).not.toContain('guard.rollback');
    // the log line says so too
    expect(logs.lines.filter((l) => l.includes('"outcome":"deadline"'))).toHaveLength(count(text, deadline));
  });

  it('600 anonymous requests and lists with garbage page tokens, then 25 failing Gets: rolled back as without them', async () => {
    await reload(`routes:\n  - resource: groups\n    operations: [get, list]\n    native: 100\n${GUARD}`);
    for (let i = 0; i < 60; i += 1) {
      const batch = Array.from({ length: 10 }, (_, j) =>
        (i + j) % 2 === 0
          ? call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`)
          : call(proxy.url, 'GET', `/iam/v2beta1/groups?page_token=garbage-${i}-${j}`, { token: TOKENS.alice }),
      );
      for (const res of await Promise.all(batch)) expect([400, 401]).toContain(res.status);
    }
    let window = (await status()).routes[0].window;
    // neither side did anything for them: the guard saw nothing
    expect(window).toMatchObject({ requests: 0, failures: 0 });
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/groups', status: 503 }] } });
    let rolledAt = 0;
    for (let i = 1; i <= 25 && rolledAt === 0; i += 1) {
      const res = await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A_TEAM}`, { token: TOKENS.alice });
      if (res.headers.get('x-v2proxy-backend') === 'translate') rolledAt = i;
    }
    // the guard trips on the 10th failure (10 of 10 native answers failed): the 11th is translated
    expect(rolledAt).toBe(11);
    window = (await status()).routes[0];
    expect(window).toMatchObject({ rolledBack: true });
    const text = await metrics();
    expect(count(text, /resource="groups",operation="get",backend="none",status="401",outcome="refused"/)).toBe(300);
    expect(count(text, /resource="groups",operation="list",backend="native",status="400",outcome="client_error"/)).toBe(300);
  });

  it('a drain that stops native reads under way: answered 503, counted as shutdown, no rollback', async () => {
    await reload(GUARDED_GETS);
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/groups', delayMs: 5_000 }] } });
    const reads = Array.from({ length: 20 }, () => call(proxy.url, 'GET', `/iam/v2beta1/groups/${A_TEAM}`, { token: TOKENS.alice }));
    await until(
      () => h.dev('GET', '/__emulator/stats'),
      (s) => Object.entries(s.body.requests as Record<string, number>).some(([k, n]) => k.startsWith('GET /iam/v2beta1/groups') && n >= 20),
      'the 20 reads at the native side',
    );
    // the drain's time runs out while they wait for the native side
    closed = true;
    const drained = proxy.close();
    const answers = await Promise.all(reads);
    await drained;
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(503));
    expect(answers[0]?.body.message).toMatch(/shutting down/);
    expect(logs.text).not.toContain('guard.rollback');
    expect(logs.lines.filter((l) => l.includes('"outcome":"shutdown"'))).toHaveLength(20);
  });

  it('a route is the same route in any order of its operations: promoted stays promoted, every caller stays on its side', async () => {
    const routeIn = (ops: string) =>
      `routes:\n  - resource: groups\n    operations: [${ops}]\n    steps:\n      - native: 0\n      - native: 40\n      - native: 100\n    analysis:\n      interval: 1h\n`;
    const jwtOf = (sub: string) => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.sig`;
    const callers = Array.from({ length: 60 }, (_, i) => jwtOf(`caller-${i}`));
    const sides = async () => {
      const seen: string[] = [];
      for (const token of callers) seen.push((await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token })).headers.get('x-v2proxy-backend') ?? '');
      return seen;
    };
    const progress = async () => (await status()).routes[0].progress;
    await reload(routeIn('list, get'));
    expect((await admin('POST', '/admin/rollout/routes/groups/list,get/promote')).status).toBe(200);
    expect(await progress()).toMatchObject({ state: 'progressing', step: 2 });
    const before = await sides();
    // some of each: the share splits them
    expect(new Set(before)).toEqual(new Set(['native', 'translate']));
    await reload(routeIn('get, list'));
    expect(await progress()).toMatchObject({ state: 'progressing', step: 2 });
    expect(await sides()).toEqual(before);
    expect((await admin('POST', '/admin/rollout/routes/groups/get,list/promote')).status).toBe(200);
    await reload(routeIn('list, get'));
    expect(await progress()).toMatchObject({ state: 'promoted', step: 3 });
    expect(new Set(await sides())).toEqual(new Set(['native']));
  });
});
