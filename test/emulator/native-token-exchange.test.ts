import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A_TEAM, DEV_TOKEN } from '../support/fixtures.js';
import { type EmulatorHarness, startHarness, workloadIdentity } from '../support/emulator-harness.js';
import { type TestIssuer, startTestIssuer } from '../support/oidc-issuer.js';

// The v2 service serves the token exchange beside its resources; so does the emulator's native surface.
describe('emulator: the native surface serves /sts/exchange as v1 does', () => {
  let issuer: TestIssuer;
  let h: EmulatorHarness;
  let identity: string;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    h = await startHarness({ trustedIssuers: [issuer.url] });
    identity = await workloadIdentity(h, { name: 'workload', group: A_TEAM, issuer: issuer.url, subject: 'system:serviceaccount:ns:app', role: 'viewer' });
  });
  afterAll(async () => {
    await h.close();
    await issuer.close();
  });

  it('mints a token by GET and by form POST that the API takes, and refuses a missing or untrusted bearer in AIP-193 form', async () => {
    const oidc = await issuer.mint({ sub: 'system:serviceaccount:ns:app' });
    const byGet = await h.v2('GET', `/sts/exchange?aud=${encodeURIComponent(h.url)}&identity=${identity}`, { token: oidc });
    const byForm = await h.v2('POST', '/sts/exchange', { token: oidc, form: { aud: h.url, identity } });
    expect([byGet.status, Object.keys(byGet.body).sort(), byForm.status]).toEqual([200, ['expiry', 'token'], 200]);
    expect((await h.v2('GET', '/iam/v2beta1/groups', { token: byForm.body.token })).status).toBe(200);

    const anonymous = await h.v2('GET', `/sts/exchange?aud=x&identity=${identity}`);
    expect([anonymous.status, anonymous.body.code, anonymous.body.details[0].reason]).toEqual([401, 16, 'UNAUTHENTICATED']);
    const noAudience = await h.v2('GET', `/sts/exchange?identity=${identity}`, { token: oidc });
    expect([noAudience.status, noAudience.body.code]).toEqual([400, 3]);
    const wrong = await h.v2('DELETE', '/sts/exchange', { token: DEV_TOKEN });
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([501, 'GET, POST']);
  });
});
