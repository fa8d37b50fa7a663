// gRPC writes verified on both sides, on a proxy of its own: no earlier case's open native circuit or rolled-back route
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { type Answer, call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, TOKENS } from '../support/fixtures.js';
import { type GrpcV2, grpcV2 } from '../support/grpc-v2-call.js';
import { startProxy } from '../support/proxy-harness.js';
import { until } from '../support/until.js';

const ADMIN = 'admin-token-for-grpc-write-verification';
const TIMES = 'ignore: [createTime, updateTime]';
const sideOf = (res: Answer) => res.headers.get('x-v2proxy-backend');

describe('write verification of gRPC writes (grpc-js on h2c, the emulator native surface as the native backend)', () => {
  let h: EmulatorHarness;
  let proxy: RunningProxy;
  let grpc: GrpcV2;
  let file: string;
  const admin = (method: string, path: string) => call(proxy.url, method, path, { token: ADMIN });
  const reload = async (yaml: string) => {
    writeFileSync(file, yaml);
    const res = await admin('POST', '/admin/rollout/reload');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  beforeAll(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'v2proxy-grpc-verify-')), 'rollout.yaml');
    writeFileSync(file, 'routes: []\n');
    h = await startHarness();
    proxy = await startProxy({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, ADMIN_TOKEN: ADMIN, VERIFY_DELAY_MS: '20' });
    grpc = grpcV2(new URL(proxy.url).host, TOKENS.alice);
  });
  afterAll(async () => {
    grpc.close();
    await proxy.close();
    await h.close();
  });

  it('gRPC writes are verified on both sides (their proto JSON answers read like the REST reads): healthy ones match, a native side dropping a field is named', async () => {
    await reload(
      `stickyBy: header:x-caller\nroutes:\n  - resource: groups\n    operations: [create, update, delete]\n    native: 50\n    verifyWrites: 100\n    ${TIMES}\n`,
    );
    await admin('POST', '/admin/diff/reset');
    type Write = {
      operation: string;
      verified: number;
      differed: number;
      errors: number;
      unverified: number;
      checks: Record<string, { checked: number; differed: number }>;
      fields: { check: string; path: string }[];
    };
    const writes = async () =>
      ((await admin('GET', '/admin/diff.json')).body.writes as (Write & { resource: string })[]).filter((w) => w.resource === 'groups');
    const ended = (n: number) =>
      until(writes, (ws) => ws.reduce((t, w) => t + w.verified + w.errors + w.unverified, 0) >= n, `${n} gRPC writes verified`, 20_000);
    const sides = new Set<string | null>();
    let n = 0;
    for (let i = 0; i < 12; i += 1) {
      const caller = { 'x-caller': `grpc-writer-${i}` };
      const made = await grpc.call('POST', `/iam/v2beta1/groups/${A}`, { name: `grpc-verified-${i}`, description: 'first' }, caller);
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      sides.add(sideOf(made));
      n += 1;
      await ended(n);
      const uid = made.body.uid as string;
      const patched = await grpc.call('PATCH', `/iam/v2beta1/groups/${uid}?update_mask=description`, { description: `second ${i}` }, caller);
      expect(patched.status, `${sideOf(patched)} ${JSON.stringify(patched.body)}`).toBe(200);
      n += 1;
      await ended(n);
      const deleted = await grpc.call('DELETE', `/iam/v2beta1/groups/${uid}`, undefined, caller);
      expect(deleted.status, `${sideOf(deleted)} ${JSON.stringify(deleted.body)}`).toBe(200);
      n += 1;
      await ended(n);
    }
    expect(sides).toEqual(new Set(['native', 'translate']));
    const healthy = await writes();
    expect(healthy.flatMap((w) => w.fields)).toEqual([]);
    // each write held still: every check ran on each
    for (const w of healthy) expect([w.operation, w.verified, w.checks.intent?.checked], JSON.stringify(w)).toEqual([w.operation, 12, 12]);
    await reload(`routes:\n  - resource: groups\n    operations: [update]\n    native: 100\n    verifyWrites: 100\n    ${TIMES}\n`);
    await admin('POST', '/admin/diff/reset');
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v2beta1/groups', method: 'PATCH', write: { drop: ['description'] } }] } });
    expect(sideOf(await grpc.call('PATCH', `/iam/v2beta1/groups/${A}?update_mask=description`, { description: 'never stored' }))).toBe('native');
    const [update] = await ended(1);
    expect(update?.fields.map((f) => [f.check, f.path])).toEqual([['intent', 'description']]);
  });
});
