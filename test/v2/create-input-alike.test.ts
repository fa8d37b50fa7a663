import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/emulator-harness.js';
import { A, DEV_TOKEN } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

type Violations = { status: number; body: { code?: number; details?: { fieldViolations?: { field: string }[] }[] } };
const fieldsOf = (a: Violations) => [a.status, a.body.code, (a.body.details ?? []).flatMap((d) => d.fieldViolations ?? []).map((v) => v.field)];

// What a create must give and may not give, answered alike by translation and by the native service.
describe('create bodies: required nested fields and mistyped read-only ones, the same on both sides', () => {
  let env: ProxyOnEmulator;
  let viewer: string;
  beforeAll(async () => {
    env = await startProxyOnEmulator();
    viewer = (await env.h.dev('GET', '/iam/v1/roles?name=viewer')).body.items[0].id;
  });
  afterAll(() => env.close());
  const both = (path: string, body: unknown) =>
    Promise.all([call(env.proxy.url, 'POST', path, { token: DEV_TOKEN, body }), call(env.h.v2url, 'POST', path, { token: DEV_TOKEN, body })]);

  it('an identity provider without its default role, OIDC issuer or client id is refused naming each, by v1 too', async () => {
    const [proxied, native] = await both(`/iam/v2beta1/identityProviders/${A}`, { name: 'sso', oidc: { clientSecret: 's' } });
    expect(fieldsOf(proxied)).toEqual([400, 3, ['defaultRole', 'oidc.issuer', 'oidc.clientId']]);
    expect(fieldsOf(native)).toEqual(fieldsOf(proxied));
    const v1 = await env.h.dev('POST', `/iam/v1/identityProviders/${A}`, {
      body: { name: 'sso', defaultRole: viewer, oidc: { issuer: 'https://sso.example' } },
    });
    expect([v1.status, v1.body.message]).toEqual([400, 'oidc.clientId is required']);
    const made = await both(`/iam/v2beta1/identityProviders/${A}`, {
      name: 'sso',
      defaultRole: viewer,
      oidc: { issuer: 'https://sso.example', clientId: 'c' },
    });
    expect(made.map((a) => a.status)).toEqual([200, 200]);
  });

  it('a read-only field is ignored when it is of its type and refused, named, when it is not', async () => {
    const ignored = await both(`/iam/v2beta1/groups/${A}`, { name: 'times', createTime: '2020-01-01T00:00:00Z' });
    expect(ignored.map((a) => [a.status, a.body.createTime === '2020-01-01T00:00:00.000Z'])).toEqual([
      [200, false],
      [200, false],
    ]);
    const [proxied, native] = await both(`/iam/v2beta1/groups/${A}`, { name: 'times', createTime: 'yesterday' });
    expect(fieldsOf(proxied)).toEqual([400, 3, ['createTime']]);
    expect(fieldsOf(native)).toEqual(fieldsOf(proxied));
  });

  it('a body with a field of the wrong type is refused for that alone, not also for what it lacks', async () => {
    const [proxied, native] = await both(`/iam/v2beta1/groups/${A}`, { description: 12 });
    expect(fieldsOf(proxied)).toEqual([400, 3, ['description']]);
    expect(fieldsOf(native)).toEqual(fieldsOf(proxied));
  });
});
