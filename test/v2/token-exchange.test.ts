import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rewriteAudiences } from '../../src/auth/sts-exchange.js';
import { A, A_TEAM } from '../support/fixtures.js';
import { call, workloadIdentity } from '../support/emulator-harness.js';
import { type TestIssuer, startTestIssuer } from '../support/oidc-issuer.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { aipError } from '../support/aip.js';

describe('token exchange through the proxy', () => {
  let issuer: TestIssuer;
  let env: ProxyOnEmulator;
  let identity: string;
  const SUB = 'system:serviceaccount:prod:app';

  beforeAll(async () => {
    issuer = await startTestIssuer();
    env = await startProxyOnEmulator({}, undefined, { trustedIssuers: [issuer.url] });
    identity = await workloadIdentity(env.h, { name: 'workload', group: A_TEAM, issuer: issuer.url, subject: SUB, role: 'viewer' });
  });
  afterAll(async () => {
    await env.close();
    await issuer.close();
  });

  it('GET with aud = the proxy URL mints a v1 token for the v1 audience, and it works for v2 calls', async () => {
    const res = await call(env.proxy.url, 'GET', `/sts/exchange?aud=${encodeURIComponent(env.proxy.settings.publicUrl)}&identity=${identity}`, {
      token: await issuer.mint({ sub: SUB }),
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['expiry', 'token']);
    expect(decodeJwt(res.body.token).aud).toEqual([env.h.url]);
    const group = await call(env.proxy.url, 'GET', `/iam/v2beta1/groups/${A_TEAM}`, { token: res.body.token });
    expect(group.status).toBe(200);
    expect(group.body).toMatchObject({ uid: A_TEAM, name: 'team' });
    // scoped like the identity: the tenant root is not visible
    expect((await call(env.proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: res.body.token })).status).toBe(404);
  });

  it('POST with a form body works too; other audiences are passed on unchanged', async () => {
    const res = await call(env.proxy.url, 'POST', '/sts/exchange', {
      token: await issuer.mint({ sub: SUB }),
      form: { aud: [`${env.proxy.settings.publicUrl}/`, 'https://other.example'], identity },
    });
    expect(res.status).toBe(200);
    expect(decodeJwt(res.body.token).aud).toEqual([env.h.url, 'https://other.example']);
  });

  it('STS errors come back in AIP-193 form', async () => {
    const untrusted = await call(env.proxy.url, 'GET', `/sts/exchange?aud=x&identity=${identity}`, { token: 'not.a.jwt' });
    expect(untrusted.status).toBe(401);
    expect(untrusted.body).toEqual(aipError(16, /^Unauthenticated: /, 'UNAUTHENTICATED'));
    const mismatch = await call(env.proxy.url, 'GET', `/sts/exchange?aud=x&identity=${identity}`, { token: await issuer.mint({ sub: 'someone-else' }) });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body).toEqual(aipError(7, /^Permission denied: /, 'PERMISSION_DENIED'));
    const wrongMethod = await call(env.proxy.url, 'DELETE', '/sts/exchange');
    expect(wrongMethod.status).toBeGreaterThanOrEqual(400);
    expect(wrongMethod.status).toBeLessThan(500);
  });

  it('a JSON body whose parameter is not text is INVALID_ARGUMENT naming it, never a 500', async () => {
    for (const [body, field] of [
      [{ aud: 12, identity }, 'aud'],
      [{ aud: ['x', { a: 1 }], identity }, 'aud'],
      [{ aud: 'x', identity: null }, 'identity'],
      [[1, 2], 'body'],
    ] as const) {
      const res = await call(env.proxy.url, 'POST', '/sts/exchange', { token: await issuer.mint({ sub: SUB }), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.find((d: { fieldViolations?: unknown }) => d.fieldViolations).fieldViolations).toEqual([
        { field, description: expect.any(String) },
      ]);
    }
  });

  it('rewrites only audiences that name the proxy', () => {
    const s = { publicUrl: 'http://proxy:8080', v1Audience: 'https://v1.example' };
    expect(rewriteAudiences({ aud: 'http://proxy:8080/', identity: 'i' }, s)).toEqual({ aud: 'https://v1.example', identity: 'i' });
    expect(rewriteAudiences({ aud: ['http://proxy:8080', 'http://proxy:8081'] }, s)).toEqual({ aud: ['https://v1.example', 'http://proxy:8081'] });
    expect(rewriteAudiences({ identity: 'i' }, s)).toEqual({ identity: 'i' });
  });
});
