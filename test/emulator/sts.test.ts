import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, A_TEAM, DEV_TOKEN } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness, v1Error, workloadIdentity } from '../support/emulator-harness.js';
import { type TestIssuer, startTestIssuer } from '../support/oidc-issuer.js';

describe('emulator: STS /sts/exchange against a local OIDC issuer', () => {
  let issuer: TestIssuer;
  let untrusted: TestIssuer;
  let h: EmulatorHarness;
  let identity: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    untrusted = await startTestIssuer();
    h = await startHarness({ trustedIssuers: [issuer.url] });
    identity = await workloadIdentity(h, { name: 'workload', group: A_TEAM, issuer: issuer.url, subject: 'system:serviceaccount:ns:app', role: 'viewer' });
  });
  afterAll(async () => {
    await h.close();
    await issuer.close();
    await untrusted.close();
  });

  const exchange = (oidcToken: string, query = `aud=${encodeURIComponent(h.url)}&identity=${identity}`) =>
    h.call('GET', `/sts/exchange?${query}`, { token: oidcToken });

  it('GET mints a one-hour token for the matching identity, and the token works on the API within its scope', async () => {
    const before = Date.now();
    const res = await exchange(await issuer.mint({ sub: 'system:serviceaccount:ns:app' }));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['expiry', 'token']);
    const lifetime = Date.parse(res.body.expiry) - before;
    expect(lifetime).toBeGreaterThan(3_590_000);
    expect(lifetime).toBeLessThanOrEqual(3_601_000);
    const groups = await h.call('GET', '/iam/v1/groups', { token: res.body.token });
    expect(groups.status).toBe(200);
    expect((groups.body.items as { id: string }[]).map((g) => g.id)).toContain(A_TEAM);
    expect((groups.body.items as { id: string }[]).map((g) => g.id)).not.toContain(A);
    // the exchange is recorded as the identity's last federation
    const seen = await h.dev('GET', `/iam/v1/identities?id=${identity}`);
    expect(seen.body.items[0].lastSeen).toMatch(/Z$/);
  });

  it('POST with a form body works too', async () => {
    const res = await h.call('POST', '/sts/exchange', { token: await issuer.mint({ sub: 'system:serviceaccount:ns:app' }), form: { aud: h.url, identity } });
    expect(res.status).toBe(200);
    expect((await h.call('GET', '/iam/v1/groups', { token: res.body.token })).status).toBe(200);
  });

  it('a minted token for another audience is not accepted by the API', async () => {
    const res = await exchange(await issuer.mint({ sub: 'system:serviceaccount:ns:app' }), `aud=https://elsewhere.example&identity=${identity}`);
    expect(res.status).toBe(200);
    const api = await h.call('GET', '/iam/v1/groups', { token: res.body.token });
    expect(api.status).toBe(401);
    expect(api.body.code).toBe(16);
  });

  it('rejects untrusted, forged, expired and missing tokens with 16', async () => {
    const sub = 'system:serviceaccount:ns:app';
    for (const token of [await untrusted.mint({ sub }), await issuer.forge({ sub }), await issuer.mint({ sub }, { expiresInSeconds: -60 }), 'not-a-jwt']) {
      const res = await exchange(token);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(16);
    }
    const none = await h.call('GET', `/sts/exchange?aud=x&identity=${identity}`);
    expect(none.body).toEqual(v1Error(16, /bearer/));
  });

  it('answers 7 when the token does not match the identity claim match, and 3 without aud or identity', async () => {
    const wrongSubject = await exchange(await issuer.mint({ sub: 'someone-else' }));
    expect(wrongSubject.status).toBe(403);
    expect(wrongSubject.body.code).toBe(7);
    const noIdentity = await exchange(await issuer.mint({ sub: 'x' }), `aud=${h.url}`);
    expect(noIdentity.body).toEqual(v1Error(3, 'identity is required'));
    const noAud = await exchange(await issuer.mint({ sub: 'x' }), `identity=${identity}`);
    expect(noAud.body).toEqual(v1Error(3, 'aud is required'));
    // a dev token is not an OIDC token
    expect((await exchange(DEV_TOKEN)).status).toBe(401);
  });
});
