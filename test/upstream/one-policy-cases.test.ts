import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { type Answer, call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A_TEAM, TOKENS } from '../support/fixtures.js';
import { type GrpcV2, grpcV2 } from '../support/grpc-v2-call.js';
import { startProxy } from '../support/proxy-harness.js';

const SECRET = 'override-secret-of-the-policy-cases';
const ATTEMPT_MS = 400;

/** One way the proxy calls a backend: a read through it, the path its backend sees, and the answer it gives when all is well. */
interface Target {
  name: string;
  /** the path the backend is called on (where the fault rules apply) */
  path: string;
  read(): Promise<Answer>;
  /** the answer of a backend that is well */
  fine: number;
}

// One case suite, four ways out: every backend call goes through the one policy (the breaker, the
// retry budget, the attempt timeout and the deadline), so each case ends the same way on each.
describe('one upstream policy: the same faults end the same way on v1 REST, native REST, native gRPC and the token issuer', () => {
  let h: EmulatorHarness;
  let proxy: RunningProxy;
  let grpc: GrpcV2;
  const targets: Target[] = [];

  beforeAll(async () => {
    h = await startHarness();
    const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-policy-')), 'rollout.yaml');
    writeFileSync(file, 'allowOverride: true\nroutes:\n  - resource: groups\n    operations: [get]\n    native: 0\n');
    const attempt = String(ATTEMPT_MS);
    proxy = await startProxy({
      V1_BASE_URL: h.url,
      V2_BASE_URL: h.v2url,
      ROLLOUT_FILE: file,
      ROLLOUT_OVERRIDE_SECRET: SECRET,
      V1_ATTEMPT_TIMEOUT_MS: attempt,
      V2_ATTEMPT_TIMEOUT_MS: attempt,
      V1_ISSUER_ATTEMPT_TIMEOUT_MS: attempt,
    });
    grpc = grpcV2(new URL(proxy.url).host, TOKENS.alice);
    const group = `/iam/v2beta1/groups/${A_TEAM}`;
    const side = (backend: string) => ({ 'x-v2proxy-backend': backend, 'x-v2proxy-override-secret': SECRET });
    targets.push(
      { name: 'v1 REST', path: '/iam/v1/groups', fine: 200, read: () => call(proxy.url, 'GET', group, { token: TOKENS.alice, headers: side('translate') }) },
      { name: 'native REST', path: group, fine: 200, read: () => call(proxy.url, 'GET', group, { token: TOKENS.alice, headers: side('native') }) },
      { name: 'native gRPC', path: group, fine: 200, read: () => grpc.call('GET', group, undefined, side('native')) },
      // a token the issuer does not trust: its own answer is 401
      { name: 'token issuer', path: '/sts/exchange', fine: 401, read: () => call(proxy.url, 'GET', '/sts/exchange?aud=x&identity=y', { token: 'not.a.jwt' }) },
    );
  });
  beforeEach(async () => {
    await h.dev('DELETE', '/__emulator/faults');
  });
  afterAll(async () => {
    grpc?.close();
    await proxy?.close();
    await h?.close();
  });

  const faults = (rule: Record<string, unknown>, target: Target) =>
    h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: target.path, method: 'GET', ...rule }] } });
  const attempts = async (target: Target) => ((await h.dev('GET', '/__emulator/stats')).body.requests[`GET ${target.path}`] ?? 0) as number;
  const counting = async (target: Target, read: () => Promise<Answer>) => {
    await h.dev('POST', '/__emulator/stats/reset');
    const answer = await read();
    return { answer, attempts: await attempts(target) };
  };

  const each = (name: string, check: (target: Target) => Promise<void>) =>
    it.each(['v1 REST', 'native REST', 'native gRPC', 'token issuer'])(`${name}: %s`, async (which) => {
      await check(targets.find((t) => t.name === which) as Target);
    });

  each('a hung backend: the attempt ends at the attempt timeout, answered UNAVAILABLE (retryable), not retried into a second hang', async (t) => {
    await faults({ hang: true }, t);
    const started = performance.now();
    const { answer, attempts: n } = await counting(t, t.read);
    expect(performance.now() - started).toBeGreaterThanOrEqual(ATTEMPT_MS - 20);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 14, message: expect.stringMatching(/does not answer \(no answer within the attempt timeout \(400 ms\)\)$/) });
    expect(n).toBe(1);
  });

  each('a burst of 503s: the read goes again and the answer that worked comes back', async (t) => {
    await faults({ status: 503, times: 2 }, t);
    const { answer, attempts: n } = await counting(t, t.read);
    expect(answer.status).toBe(t.fine);
    expect(n).toBe(3);
  });

  each('a connection reset before the answer: the read goes again', async (t) => {
    await faults({ reset: true, times: 1 }, t);
    const { answer, attempts: n } = await counting(t, t.read);
    expect(answer.status).toBe(t.fine);
    expect(n).toBe(2);
  });

  each('a slow answer inside the attempt timeout: answered as it is, once', async (t) => {
    await faults({ delayMs: ATTEMPT_MS / 2 }, t);
    const { answer, attempts: n } = await counting(t, t.read);
    expect(answer.status).toBe(t.fine);
    expect(n).toBe(1);
  });
});
