import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness, v1Error } from '../support/emulator-harness.js';

describe('emulator: request stats and gateway routing errors', () => {
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('counts v1 calls by method and path without query, and resets', async () => {
    await h.call('POST', '/__emulator/stats/reset');
    await h.dev('GET', `/iam/v1/groups?id=${A}`);
    await h.dev('GET', '/iam/v1/groups?name=x');
    await h.dev('POST', `/iam/v1/groups/${A}`, { body: { name: 'counted' } });
    await h.call('GET', '/iam/v1/roles'); // unauthenticated calls count too
    const stats = await h.call('GET', '/__emulator/stats');
    expect(stats.body).toEqual({ total: 4, requests: { 'GET /iam/v1/groups': 2, [`POST /iam/v1/groups/${A}`]: 1, 'GET /iam/v1/roles': 1 } });
    const reset = await h.call('POST', '/__emulator/stats/reset');
    expect(reset.body).toEqual({ total: 0, requests: {} });
  });

  it('an unknown path answers 404 code 5, a known path with a wrong method 501 code 12', async () => {
    const unknown = await h.dev('GET', '/iam/v1/widgets');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(v1Error(5, 'Not Found'));
    const wrongMethod = await h.dev('PATCH', `/iam/v1/groups/${A}`, { body: {} });
    expect(wrongMethod.status).toBe(501);
    expect(wrongMethod.body).toEqual(v1Error(12, 'Method Not Allowed'));
    // v1 has no Get by uid: a GET on a uid path is a known path with the wrong method
    expect((await h.dev('GET', `/iam/v1/groups/${A}`)).status).toBe(501);
  });

  it('a body over the limit is refused without a crash', async () => {
    const res = await h.dev('POST', `/iam/v1/groups/${A}`, { body: { name: 'big', description: 'x'.repeat(2 * 1024 * 1024) } });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe(8);
  });
});
