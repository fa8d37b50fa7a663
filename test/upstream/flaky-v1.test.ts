import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { CircuitBreaker } from '../../src/upstream/circuit-breaker.js';
import { RetryBudget } from '../../src/upstream/retry-budget.js';
import { type EmulatorHarness, call, startHarness } from '../support/emulator-harness.js';
import { A, A_TEAM, TOKENS } from '../support/fixtures.js';
import { outage, readMany } from '../support/flaky-v1-figures.js';
import { startProxy } from '../support/proxy-harness.js';
import { TcpFaultProxy } from '../support/tcp-fault-proxy.js';

describe('circuit breaker and retry budget (parts, test clock)', () => {
  const breaker = (now: { t: number }) => new CircuitBreaker({ windowMs: 2_000, minAttempts: 10, failureRatio: 0.5, openMs: 250, now: () => now.t });

  it('a steady 20 % of failures never opens it; half of the last 2 s failing does', () => {
    const now = { t: 0 };
    const b = breaker(now);
    for (let i = 0; i < 1_000; i += 1) {
      now.t += 3;
      expect(b.admit()).toBe('go');
      b.record(i % 5 === 0, false);
    }
    expect(b.current()).toBe('closed');
    for (let i = 0; i < 9; i += 1) b.record(true, false);
    // the window still holds the successes of the last 2 s
    expect(b.current()).toBe('closed');
    now.t += 2_500; // those slide out
    for (let i = 0; i < 10; i += 1) b.record(true, false);
    expect(b.current()).toBe('open');
  });

  it('open: refuses at once, lets one trial out every openMs even while an earlier trial hangs, closes on the first answered trial', () => {
    const now = { t: 10_000 };
    const b = breaker(now);
    for (let i = 0; i < 10; i += 1) b.record(true, false);
    expect(b.current()).toBe('open');
    expect(b.admit()).toBe('refuse');
    now.t += 249;
    expect(b.admit()).toBe('refuse');
    now.t += 1;
    expect(b.admit()).toBe('trial'); // this one hangs: no record yet
    expect(b.admit()).toBe('refuse');
    now.t += 250;
    expect(b.admit()).toBe('trial');
    b.record(true, true); // failed trial: stays open
    expect(b.current()).toBe('open');
    b.record(undefined, true); // the caller gave up: says nothing
    expect(b.current()).toBe('open');
    now.t += 250;
    expect(b.admit()).toBe('trial');
    b.record(false, true);
    expect(b.current()).toBe('closed');
    expect(b.admit()).toBe('go');
  });

  it('the retry budget: a saved burst, then `ratio` retries per first attempt', () => {
    const budget = new RetryBudget(0.5, 3);
    expect([budget.spend(), budget.spend(), budget.spend(), budget.spend()]).toEqual([true, true, true, false]);
    budget.earn();
    expect(budget.spend()).toBe(false);
    budget.earn();
    expect(budget.spend()).toBe(true);
    for (let i = 0; i < 100; i += 1) budget.earn();
    let spent = 0;
    while (budget.spend()) spent += 1;
    expect(spent).toBe(3);
  });
});

describe('reads survive a flaky v1 (real sockets: emulator faults and a TCP fault hop)', () => {
  let h: EmulatorHarness;
  let fault: TcpFaultProxy;
  let proxy: RunningProxy;
  const reads = [`/iam/v2beta1/groups/${A}`, `/iam/v2beta1/groups/${A_TEAM}`, `/iam/v2beta1/groups?parent=${A}`];
  beforeAll(async () => {
    h = await startHarness();
    fault = await TcpFaultProxy.start(h.url);
    // the defaults but a shorter attempt timeout, so the 1 s bounds hold with room on a busy machine
    proxy = await startProxy({ V1_BASE_URL: fault.url, V1_ATTEMPT_TIMEOUT_MS: '400', LIST_CACHE_TTL_MS: '0' });
  });
  afterAll(async () => {
    await proxy.close();
    await fault.close();
    await h.close();
  });

  it('with 20 % of v1 reads reset, at least 99.9 % of 2,000 v2 reads succeed', async () => {
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1', method: 'GET', rate: 0.2, reset: true }] } });
    try {
      const { ok, failures } = await readMany(proxy.url, TOKENS.alice, reads, 2_000, 8);
      expect(failures).toEqual(failures.slice(0, 2)); // at most 2 of 2,000, listed if more
      expect(ok).toBeGreaterThanOrEqual(1_998);
    } finally {
      await h.dev('DELETE', '/__emulator/faults');
    }
  });

  it('a write is never retried blindly: a reset POST is tried once and answers 503', async () => {
    await h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1/groups', method: 'POST', reset: true }] } });
    try {
      const posts = async () => (await h.dev('GET', '/__emulator/stats')).body.requests['POST /iam/v1/groups/'] ?? 0;
      const before = await posts();
      const res = await call(proxy.url, 'POST', `/iam/v2beta1/groups?parent=${A}`, { token: TOKENS.alice, body: { name: 'once' } });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe(14);
      expect((await posts()) - before).toBe(1);
    } finally {
      await h.dev('DELETE', '/__emulator/faults');
    }
  });

  for (const mode of ['refuse', 'hang'] as const) {
    it(`while v1 ${mode === 'refuse' ? 'refuses connections' : 'hangs'}, reads fail within 1 s with UNAVAILABLE; once it is back, they succeed within 1 s`, async () => {
      const figures = await outage(fault, mode, proxy.url, TOKENS.alice, reads[0] as string, { everyMs: 20, downMs: 2_000, upMs: 1_500 });
      expect(figures.okWhileDown).toBe(0);
      expect([...figures.failures]).toEqual(['503/14']);
      expect(figures.slowestFailureMs).toBeLessThan(1_000);
      expect(figures.recoveryMs).toBeLessThan(1_000);
      expect(figures.readsAfter).toBeGreaterThan(50);
    });
  }
});
