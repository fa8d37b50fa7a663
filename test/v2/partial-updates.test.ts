import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, A_TEAM, B, CAROL, CUSTOM_ROLE_A, DEV_TOKEN } from '../support/fixtures.js';
import { type Answer, call } from '../support/emulator-harness.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { aipError, badRequest } from '../support/aip.js';
import { anyTime } from '../support/matchers.js';

const NAME_RULE = 'name must match "^[a-z0-9 ._-]{1,}$"';

describe('PATCH: partial updates on top of v1 full-record PUTs', () => {
  let env: ProxyOnEmulator;
  let v2: (method: string, path: string, body?: unknown) => Promise<Answer>;
  let v1Get: (collection: string, uid: string) => Promise<Record<string, any>>;
  let viewer: string;
  const identity = async (extra: Record<string, unknown> = {}) =>
    (
      await v2('POST', `/iam/v2beta1/identities/${A_TEAM}`, {
        name: 'bot',
        description: 'keep',
        claimMatch: { issuer: 'https://gh', subject: 'repo:a', claims: { team: 'x', env: 'prod' } },
        ...extra,
      })
    ).body.uid as string;

  beforeAll(async () => {
    env = await startProxyOnEmulator();
    v2 = (method, path, body) => call(env.proxy.url, method, path, { token: DEV_TOKEN, ...(body === undefined ? {} : { body }) });
    v1Get = async (collection, uid) => (await call(env.h.url, 'GET', `/iam/v1/${collection}?id=${uid}`, { token: DEV_TOKEN })).body.items[0];
    viewer = (await call(env.h.url, 'GET', '/iam/v1/roles?name=viewer', { token: DEV_TOKEN })).body.items[0].id;
  });
  afterAll(() => env.close());

  it('without a mask: the body keys present change, nested objects down to their leaves; the rest is kept', async () => {
    const uid = await identity();
    const res = await v2('PATCH', `/iam/v2beta1/identities/${uid}`, { claim_match: { subject: 'repo:b' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      uid,
      name: 'bot',
      description: 'keep',
      claimMatch: { issuer: 'https://gh', subject: 'repo:b', claims: { team: 'x', env: 'prod' } },
      createTime: anyTime(),
      updateTime: anyTime(),
    });
    expect((await v1Get('identities', uid)).claimMatch).toEqual({ issuer: 'https://gh', subject: 'repo:b', claims: { team: 'x', env: 'prod' } });
  });

  it('a present "", false or null counts as present and resets the field', async () => {
    const uid = await identity();
    expect((await v2('PATCH', `/iam/v2beta1/identities/${uid}`, { description: '' })).body.description).toBe('');
    const group = (await v2('POST', `/iam/v2beta1/groups/${B}`, { name: 'resettable', description: 'x' })).body.uid as string;
    const res = await v2('PATCH', `/iam/v2beta1/groups/${group}`, { description: null, verified: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'resettable', description: '', verified: false });
    expect(await v1Get('groups', group)).toMatchObject({ name: 'resettable', description: '' });
  });

  it('with updateMask / update_mask (camel or snake, dotted): only the listed fields change, other body fields are ignored', async () => {
    const uid = await identity();
    const res = await v2('PATCH', `/iam/v2beta1/identities/${uid}?update_mask=claim_match.subject,description`, {
      name: 'ignored',
      description: 'new',
      claimMatch: { subject: 'repo:c', issuer: 'ignored' },
    });
    expect(res.body).toMatchObject({ name: 'bot', description: 'new', claimMatch: { issuer: 'https://gh', subject: 'repo:c' } });
    // a masked field the body leaves out is cleared
    const cleared = await v2('PATCH', `/iam/v2beta1/identities/${uid}?updateMask=description`, { name: 'ignored' });
    expect(cleared.body).toMatchObject({ name: 'bot', description: '' });
  });

  it('a map may be changed one key at a time through the mask (AIP-161); in a body it is taken whole', async () => {
    const uid = await identity();
    const one = await v2('PATCH', `/iam/v2beta1/identities/${uid}?update_mask=claimMatch.claims.team`, {
      claimMatch: { claims: { team: 'y', env: 'ignored' } },
    });
    expect(one.body.claimMatch.claims).toEqual({ team: 'y', env: 'prod' });
    const whole = await v2('PATCH', `/iam/v2beta1/identities/${uid}`, { claimMatch: { claims: { only: 'this' } } });
    expect(whole.body.claimMatch).toEqual({ issuer: 'https://gh', subject: 'repo:a', claims: { only: 'this' } });
  });

  it('`*` replaces the whole resource; output-only paths are ignored, in the mask and in the body', async () => {
    const group = (await v2('POST', `/iam/v2beta1/groups/${B}`, { name: 'replace-me', description: 'gone soon' })).body;
    const all = await v2('PATCH', `/iam/v2beta1/groups/${group.uid}?update_mask=*`, { name: 'replaced' });
    expect(all.body).toMatchObject({ uid: group.uid, name: 'replaced', description: '' });
    const output = await v2('PATCH', `/iam/v2beta1/groups/${group.uid}?update_mask=uid,create_time,resource_limits,name`, {
      uid: 'x',
      name: 'renamed',
      createTime: '2000-01-01T00:00:00Z',
    });
    expect(output.body).toMatchObject({ uid: group.uid, name: 'renamed', createTime: group.createTime });
    const sentBack = await v2('PATCH', `/iam/v2beta1/groups/${group.uid}`, { ...output.body, description: 'from a read-modify-write client' });
    expect(sentBack.status).toBe(200);
    expect(sentBack.body).toMatchObject({ uid: group.uid, name: 'renamed', description: 'from a read-modify-write client', createTime: group.createTime });
  });

  it('setting one member of a oneof clears the others (an identity has one relationship)', async () => {
    const uid = await identity();
    const res = await v2('PATCH', `/iam/v2beta1/identities/${uid}?update_mask=claimMatch.subjectPattern`, { claimMatch: { subjectPattern: 'repo:.*' } });
    expect(res.status).toBe(200);
    expect(res.body.claimMatch).toEqual({ issuer: 'https://gh', subjectPattern: 'repo:.*', claims: { team: 'x', env: 'prod' } });
    const principal = await v2('PATCH', `/iam/v2beta1/identities/${uid}`, { servicePrincipal: 'SERVICE_PRINCIPAL_INGESTER' });
    expect(principal.status).toBe(200);
    expect(principal.body.claimMatch).toBeUndefined();
    expect(principal.body.servicePrincipal).toBe('SERVICE_PRINCIPAL_INGESTER');
  });

  it('unknown paths and body keys, and bodies that fail the create rules, are INVALID_ARGUMENT naming them; nothing reaches v1', async () => {
    const uid = await identity();
    await call(env.h.url, 'POST', '/__emulator/stats/reset');
    const mask = await v2('PATCH', `/iam/v2beta1/identities/${uid}?update_mask=name,colour`, { name: 'x' });
    expect(mask.status).toBe(400);
    expect(mask.body).toEqual(
      aipError(3, 'Invalid argument: update_mask: unknown field "colour"', 'INVALID_ARGUMENT', 'iam.chainguard.dev', [
        badRequest([{ field: 'update_mask', description: 'unknown field "colour"' }]),
      ]),
    );
    const nested = await v2('PATCH', `/iam/v2beta1/identities/${uid}`, { claimMatch: { colour: 'blue' }, hue: 1 });
    expect(nested.body).toEqual(
      aipError(
        3,
        'Invalid argument: claimMatch.colour: unknown field "claimMatch.colour"; hue: unknown field "hue"',
        'INVALID_ARGUMENT',
        'iam.chainguard.dev',
        [
          badRequest([
            { field: 'claimMatch.colour', description: 'unknown field "claimMatch.colour"' },
            { field: 'hue', description: 'unknown field "hue"' },
          ]),
        ],
      ),
    );
    const deep = await v2('PATCH', `/iam/v2beta1/identities/${uid}?update_mask=claimMatch.claims.a.b`, {});
    expect(deep.body.message).toBe('Invalid argument: update_mask: unknown field "claimMatch.claims.a.b"');
    const badName = await v2('PATCH', `/iam/v2beta1/identities/${uid}`, { name: 'Not Valid!' });
    expect(badName.body).toEqual(
      aipError(3, `Invalid argument: name: ${NAME_RULE}`, 'INVALID_ARGUMENT', 'iam.chainguard.dev', [badRequest([{ field: 'name', description: NAME_RULE }])]),
    );
    const clearedRequired = await v2('PATCH', `/iam/v2beta1/identities/${uid}?update_mask=name`, {});
    expect(clearedRequired.body.message).toBe(`Invalid argument: name: ${NAME_RULE}`);
    const notObject = await v2('PATCH', `/iam/v2beta1/identities/${uid}`, ['x']);
    expect(notObject.status).toBe(400);
    expect((await call(env.h.url, 'GET', '/__emulator/stats')).body.total).toBe(0);
  });

  it("an identity provider's clientSecret is sent to v1 only when the mask names it, and never shown", async () => {
    const created = await v2('POST', `/iam/v2beta1/identityProviders/${A}`, {
      name: 'sso',
      defaultRole: viewer,
      oidc: { issuer: 'https://sso', clientId: 'c', clientSecret: 'sekret' },
    });
    const uid = created.body.uid as string;
    const secret = () => env.h.emu.store.identityProviders.get(uid)?.oidc?.clientSecret;
    const issuerOnly = await v2('PATCH', `/iam/v2beta1/identityProviders/${uid}?update_mask=oidc.issuer`, {
      oidc: { issuer: 'https://sso2', clientSecret: 'not-sent' },
    });
    expect(issuerOnly.body.oidc).toMatchObject({ issuer: 'https://sso2', clientId: 'c' });
    expect(issuerOnly.body.oidc).not.toHaveProperty('clientSecret');
    expect(secret()).toBe('sekret');
    const rotated = await v2('PATCH', `/iam/v2beta1/identityProviders/${uid}?update_mask=oidc.client_secret`, { oidc: { clientSecret: 'rotated' } });
    expect(rotated.status).toBe(200);
    expect(JSON.stringify(rotated.body)).not.toContain('rotated');
    expect(secret()).toBe('rotated');
    const renamed = await v2('PATCH', `/iam/v2beta1/identityProviders/${uid}`, { name: 'sso-renamed' });
    expect(renamed.body).toMatchObject({ name: 'sso-renamed', oidc: { issuer: 'https://sso2', clientId: 'c' } });
    expect(secret()).toBe('rotated');
  });

  it('a role binding changes role through roleUid and answers hydrated', async () => {
    const binding = (await v2('POST', `/iam/v2beta1/roleBindings/${A_TEAM}`, { identityUid: CAROL, roleUid: viewer })).body;
    const res = await v2('PATCH', `/iam/v2beta1/roleBindings/${binding.uid}?update_mask=role_uid`, { roleUid: CUSTOM_ROLE_A });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      uid: binding.uid,
      group: { uid: A_TEAM, name: 'team', description: 'A team' },
      identity: { uid: CAROL, name: 'carol', description: '', issuer: 'https://issuer.example', subject: 'carol' },
      role: { uid: CUSTOM_ROLE_A, name: 'publisher', description: 'publishes' },
      createTime: binding.createTime,
    });
    expect((await v2('PATCH', `/iam/v2beta1/roleBindings/${binding.uid}`, { group: { uid: B } })).body.role.uid).toBe(CUSTOM_ROLE_A);
  });

  it('20 concurrent PATCHes of one resource, each changing a different field, all land', async () => {
    const uid = await identity();
    const changes: [string, unknown][] = [
      ['name', { name: 'renamed' }],
      ['description', { description: 'concurrent' }],
      ['claimMatch.issuer', { claimMatch: { issuer: 'https://new-issuer' } }],
      ['claimMatch.subject', { claimMatch: { subject: 'repo:new' } }],
      ['claimMatch.audience', { claimMatch: { audience: 'aud' } }],
      ...Array.from({ length: 15 }, (_, i): [string, unknown] => [`claimMatch.claims.k${i}`, { claimMatch: { claims: { [`k${i}`]: `v${i}` } } }]),
    ];
    expect(changes).toHaveLength(20);
    const answers = await Promise.all(changes.map(([mask, body]) => v2('PATCH', `/iam/v2beta1/identities/${uid}?update_mask=${mask}`, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const final = (await v2('GET', `/iam/v2beta1/identities/${uid}`)).body;
    expect(final).toMatchObject({ name: 'renamed', description: 'concurrent' });
    expect(final.claimMatch).toEqual({
      issuer: 'https://new-issuer',
      subject: 'repo:new',
      audience: 'aud',
      claims: { team: 'x', env: 'prod', ...Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, `v${i}`])) },
    });
  });

  it('group invites cannot be updated: UNIMPLEMENTED with the reason', async () => {
    const res = await v2('PATCH', `/iam/v2beta1/groupInvites/${A}/0123456789abcdef`, { email: 'x@y.z' });
    expect(res.status).toBe(501);
    expect(res.body.message).toMatch(/^Unimplemented: group invites cannot be updated/);
  });
});
