import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/emulator-harness.js';
import { A, TOKENS } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

// Identity create is validated by the proxy in v2 words, every failed field at once, before v1.
describe('identity create validation', () => {
  let env: ProxyOnEmulator;
  const create = (body: unknown) => call(env.proxy.url, 'POST', `/iam/v2beta1/identities/${A}`, { token: TOKENS.alice, body });
  const fields = (res: { body: { details: { fieldViolations?: { field: string; description: string }[] }[] } }) =>
    res.body.details.flatMap((d) => d.fieldViolations ?? []);
  beforeAll(async () => {
    env = await startProxyOnEmulator();
  });
  afterAll(() => env.close());

  it('names every failed field with v2 names, and v1 sees nothing', async () => {
    await call(env.h.url, 'POST', '/__emulator/stats/reset');
    const empty = await create({});
    expect(empty.status).toBe(400);
    expect(fields(empty)).toEqual([
      { field: 'name', description: 'name must match "^[a-z0-9 ._-]{1,}$"' },
      { field: 'claimMatch', description: 'exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal is required' },
    ]);
    const half = await create({ name: 'ci', claimMatch: { issuer: 'https://issuer' } });
    expect(fields(half)).toEqual([{ field: 'claimMatch.subject', description: 'exactly one of claimMatch.subject, claimMatch.subjectPattern is required' }]);
    const two = await create({ name: 'ci', claimMatch: { issuer: 'i', subject: 's' }, staticKeys: { issuer: 'i', subject: 's' } });
    expect(fields(two).map((v) => v.field)).toEqual(['claimMatch', 'staticKeys']);
    expect(JSON.stringify([empty.body, half.body, two.body])).not.toMatch(/"static"|\bstatic\b/);
    expect((await call(env.h.url, 'GET', '/__emulator/stats')).body.total).toBe(0);
  });

  it('accepts each kind of relationship', async () => {
    for (const relationship of [
      { claimMatch: { issuerPattern: 'https://.*', subject: 's' } },
      { staticKeys: { issuer: 'https://i', subject: 's', issuerKeys: '{}' } },
      { servicePrincipal: 'SERVICE_PRINCIPAL_INGESTER' },
    ]) {
      const res = await create({ name: 'ok', ...relationship });
      expect(res.status, JSON.stringify(relationship)).toBe(200);
    }
  });
});
