import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/emulator-harness.js';
import { A, A_TEAM, childUid, REPO_A, TOKENS } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

// AIP-193: a caller who may not see a resource cannot learn whether it exists, on any operation.
describe('through the proxy, another tenant learns nothing about what exists', () => {
  let env: ProxyOnEmulator;
  beforeAll(async () => {
    env = await startProxyOnEmulator();
  });
  afterAll(() => env.close());

  it('answers the same for an existing and an absent uid of another tenant', async () => {
    const absent = childUid(A, 'never-made');
    for (const [method, resource, existing, body] of [
      ['GET', 'groups', A_TEAM, undefined],
      ['DELETE', 'groups', A_TEAM, undefined],
      ['PATCH', 'groups', A_TEAM, { description: 'x' }],
      ['POST', 'groups', A_TEAM, { name: 'x' }],
      ['POST', 'identities', A_TEAM, { name: 'x', claimMatch: { issuer: 'https://i', subject: 's' } }],
      ['GET', 'repos', REPO_A, undefined],
    ] as const) {
      const prefix = resource === 'repos' ? '/registry/v2beta1' : '/iam/v2beta1';
      const a = await call(env.proxy.url, method, `${prefix}/${resource}/${existing}`, { token: TOKENS.bob, ...(body ? { body } : {}) });
      const b = await call(env.proxy.url, method, `${prefix}/${resource}/${resource === 'repos' ? childUid(A, 'no-repo') : absent}`, {
        token: TOKENS.bob,
        ...(body ? { body } : {}),
      });
      expect(a.status, `${method} ${resource}`).toBe(b.status);
      expect(a.body.code).toBe(b.body.code);
      expect([403, 404]).toContain(a.status);
    }
  });
});
