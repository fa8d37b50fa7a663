import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import { openApiDocument } from '../../src/server/openapi-document.js';
import { call } from '../support/emulator-harness.js';
import { A, DEV_TOKEN } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

type Violations = { status: number; body: { uid?: string; code?: number; capabilities?: string[]; details?: { fieldViolations?: { field: string }[] }[] } };
const fieldsOf = (a: Violations) => [a.status, a.body.code, (a.body.details ?? []).flatMap((d) => d.fieldViolations ?? []).map((v) => v.field)];

// What a create must give and may not give, answered alike by translation and by the native service.
describe('create and update bodies: required nested fields, mistyped read-only ones, capabilities and named values, the same on both sides', () => {
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

  it('a role takes every capability the document lists, read back the same, and both refuse one it does not list', async () => {
    const role = openApiDocument(loadMappings(), 'test').components.schemas['chainguard.platform.iam.v2beta1.Role'] as {
      properties: { capabilities: { items: { enum: string[] } } };
    };
    const listed = role.properties.capabilities.items.enum;
    expect(listed.length).toBeGreaterThan(90);
    const made = await both(`/iam/v2beta1/roles/${A}`, { name: 'everything', capabilities: listed });
    expect(made.map((a) => [a.status, [...(a.body.capabilities ?? [])].sort()])).toEqual([
      [200, [...listed].sort()],
      [200, [...listed].sort()],
    ]);
    // in the proto, but without a v1 name the proxy could send
    const [proxied, native] = await both(`/iam/v2beta1/roles/${A}`, { name: 'terms', capabilities: ['CAP_TERMS_LIST'] });
    expect(fieldsOf(proxied)).toEqual([400, 3, ['capabilities']]);
    expect(native.body).toEqual(proxied.body);
  });

  it('a name outside those a string field takes (a group kind, an OIDC correlation rule) is refused, named, on create and on update', async () => {
    const kind = await both(`/iam/v2beta1/groups/${A}`, { name: 'kinds', kind: 'ORG_KIND_BOGUS' });
    expect(kind[0].body).toMatchObject({ code: 3, message: 'Invalid argument: kind: invalid value for enum field kind: "ORG_KIND_BOGUS"' });
    expect(kind[1].body).toEqual(kind[0].body);
    const sso = { name: 'rules', defaultRole: viewer, oidc: { issuer: 'https://sso.example', clientId: 'c', correlationRule: 'NOPE' } };
    const [proxied, native] = await both(`/iam/v2beta1/identityProviders/${A}`, sso);
    expect(fieldsOf(proxied)).toEqual([400, 3, ['correlationRule']]);
    expect(native.body).toEqual(proxied.body);
    const made = await both(`/iam/v2beta1/identityProviders/${A}`, {
      ...sso,
      oidc: { ...sso.oidc, correlationRule: 'CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID' },
    });
    const patched = await Promise.all(
      [env.proxy.url, env.h.v2url].map((url, i) =>
        call(url, 'PATCH', `/iam/v2beta1/identityProviders/${made[i]?.body.uid}?update_mask=oidc.correlationRule`, {
          token: DEV_TOKEN,
          body: { oidc: { correlationRule: 'NOPE' } },
        }),
      ),
    );
    expect(fieldsOf(patched[0] as Violations)).toEqual([400, 3, ['correlationRule']]);
    expect(patched[1]?.body).toEqual(patched[0]?.body);
  });

  it('a body with a field of the wrong type is refused for that alone, not also for what it lacks', async () => {
    const [proxied, native] = await both(`/iam/v2beta1/groups/${A}`, { description: 12 });
    expect(fieldsOf(proxied)).toEqual([400, 3, ['description']]);
    expect(fieldsOf(native)).toEqual(fieldsOf(proxied));
  });
});
