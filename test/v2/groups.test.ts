import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, A_TEAM, B, DEV_TOKEN, TOKENS, childUid } from '../support/fixtures.js';
import { type Answer, call } from '../support/emulator-harness.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { aipError, badRequest, preconditionFailure } from '../support/aip.js';
import { anyTime } from '../support/matchers.js';

const NAME_RULE = 'name must match "^[a-z0-9 ._-]{1,}$"';

describe('v2 groups through the proxy (emulator on loopback)', () => {
  let env: ProxyOnEmulator;
  let v2: (method: string, path: string, opts?: { body?: unknown; token?: string; raw?: string }) => Promise<Answer>;
  const v1Stats = async () => (await call(env.h.url, 'GET', '/__emulator/stats')).body as { total: number; requests: Record<string, number> };
  beforeAll(async () => {
    env = await startProxyOnEmulator();
    v2 = (method, path, opts = {}) => call(env.proxy.url, method, path, { token: DEV_TOKEN, ...opts });
  });
  afterAll(() => env.close());

  it('Get by uid is a v1 List with id=, translated field by field', async () => {
    await call(env.h.url, 'POST', '/__emulator/stats/reset');
    const res = await v2('GET', `/iam/v2beta1/groups/${A}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      uid: A,
      name: 'tenant-a',
      description: 'Tenant A',
      resourceLimits: { clusters: 1, idps: 1, repositories: 10 },
      verified: false,
      createTime: anyTime(),
      updateTime: anyTime(),
    });
    expect(await v1Stats()).toEqual({ total: 1, requests: { 'GET /iam/v1/groups': 1 } });
  });

  it('Get of a uid that does not exist (or is out of scope) answers 404 code 5', async () => {
    const missing = `${A}/0000000000000000`;
    const res = await v2('GET', `/iam/v2beta1/groups/${missing}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(aipError(5, `Not found: groups/${missing}`, 'NOT_FOUND'));
    const hidden = await v2('GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.bob });
    expect(hidden.status).toBe(404);
    const malformed = await v2('GET', '/iam/v2beta1/groups/not-a-uid');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(
      aipError(3, /^Invalid argument: uid: uid must be a uid/, 'INVALID_ARGUMENT', 'iam.chainguard.dev', [
        badRequest([{ field: 'uid', description: expect.stringMatching(/^uid must be a uid/) as unknown as string }]),
      ]),
    );
  });

  it('Create with {} answers exactly the documented v2 error, before anything reaches v1', async () => {
    await call(env.h.url, 'POST', '/__emulator/stats/reset');
    const res = await v2('POST', `/iam/v2beta1/groups/${A}`, { body: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 3,
      message: `Invalid argument: name: ${NAME_RULE}`,
      details: [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'INVALID_ARGUMENT', domain: 'iam.chainguard.dev' },
        { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'name', description: NAME_RULE }] },
      ],
    });
    expect((await v1Stats()).total).toBe(0);
    const noBody = await v2('POST', `/iam/v2beta1/groups/${A}`);
    expect(noBody.body.message).toBe(`Invalid argument: name: ${NAME_RULE}`);
  });

  it('Create under a parent in the path, and a root group with an empty parent', async () => {
    const res = await v2('POST', `/iam/v2beta1/groups/${A_TEAM}`, { body: { name: 'created', description: 'by v2', uid: 'ignored', unknownField: 1 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      uid: expect.stringMatching(new RegExp(`^${A_TEAM}/[0-9a-f]{16}$`)),
      name: 'created',
      description: 'by v2',
      resourceLimits: {},
      verified: false,
      createTime: anyTime(),
      updateTime: anyTime(),
    });
    expect(res.body.updateTime).toBe(res.body.createTime);
    const v1 = await call(env.h.url, 'GET', `/iam/v1/groups?id=${res.body.uid}`, { token: DEV_TOKEN });
    expect(v1.body.items[0]).toEqual({ id: res.body.uid, name: 'created', description: 'by v2', resourceLimits: {}, verified: false });
    const root = await v2('POST', '/iam/v2beta1/groups', { body: { name: 'new-org' }, token: TOKENS.carol });
    expect(root.status).toBe(200);
    expect(root.body.uid).toMatch(/^[0-9a-f]{40}$/);
  });

  it('Delete answers 200 {}', async () => {
    const created = await v2('POST', `/iam/v2beta1/groups/${B}`, { body: { name: 'to-delete' } });
    const res = await v2('DELETE', `/iam/v2beta1/groups/${created.body.uid}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await v2('GET', `/iam/v2beta1/groups/${created.body.uid}`)).status).toBe(404);
  });

  const CHILD_REPOS = aipError(9, 'Precondition failed: cannot delete group with child repos', 'FAILED_PRECONDITION', 'iam.chainguard.dev', [
    preconditionFailure([{ type: 'RESOURCE_NOT_EMPTY', description: 'cannot delete group with child repos' }]),
  ]);

  it('Deleting a group with child repos answers exactly the documented v2 error, checked before the v1 DELETE', async () => {
    await call(env.h.url, 'POST', '/__emulator/stats/reset');
    const res = await v2('DELETE', `/iam/v2beta1/groups/${A}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(CHILD_REPOS);
    expect(Object.keys((await v1Stats()).requests).some((k) => k.startsWith('DELETE'))).toBe(false);
  });

  it('…and translated the same when only v1 can see the repos and refuses', async () => {
    // a caller who may delete groups but not list repos: the proxy's check sees nothing, v1 refuses
    const group = await v2('POST', `/iam/v2beta1/groups/${B}`, { body: { name: 'has-repo' } });
    await call(env.h.url, 'POST', `/registry/v1/repos/${group.body.uid}`, { token: DEV_TOKEN, body: { name: 'hidden' } });
    const role = await call(env.h.url, 'POST', `/iam/v1/roles/${B}`, {
      token: DEV_TOKEN,
      body: { name: 'deleter', capabilities: ['groups.delete', 'groups.list'] },
    });
    const who = await call(env.h.url, 'POST', `/iam/v1/identities/${B}`, {
      token: DEV_TOKEN,
      body: { name: 'deleter', claimMatch: { issuer: 'https://i', subject: 's' } },
    });
    await call(env.h.url, 'POST', `/iam/v1/rolebindings/${B}`, { token: DEV_TOKEN, body: { identity: who.body.id, role: role.body.id } });
    env.h.emu.store.tokens.set('token-deleter-0123456789', who.body.id);
    await call(env.h.url, 'POST', '/__emulator/stats/reset');
    const res = await v2('DELETE', `/iam/v2beta1/groups/${group.body.uid}`, { token: 'token-deleter-0123456789' });
    expect(res.body).toEqual(CHILD_REPOS);
    expect((await v1Stats()).requests[`DELETE /iam/v1/groups/${group.body.uid}`]).toBe(1);
  });

  it('Deleting a group with child groups passes v1 refusal on as FAILED_PRECONDITION', async () => {
    const res = await v2('DELETE', `/iam/v2beta1/groups/${A_TEAM}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(aipError(9, 'Precondition failed: cannot delete group with child groups', 'FAILED_PRECONDITION'));
  });

  it('v1 errors keep their code and get the prefix and an ErrorInfo', async () => {
    const noToken = await call(env.proxy.url, 'GET', `/iam/v2beta1/groups/${A}`);
    expect(noToken.status).toBe(401);
    expect(noToken.body).toEqual(aipError(16, 'Unauthenticated: missing bearer token', 'UNAUTHENTICATED'));
    const denied = await v2('POST', `/iam/v2beta1/groups/${A}`, { body: { name: 'x' }, token: TOKENS.bob });
    expect(denied.status).toBe(403);
    // one prefix, not v1's repeated under it
    expect(denied.body).toEqual(aipError(7, /^Permission denied: CAP_IAM_GROUPS_CREATE on /, 'PERMISSION_DENIED'));
    const missingParent = await v2('POST', `/iam/v2beta1/groups/${childUid(B, 'nope')}`, { body: { name: 'x' } });
    expect(missingParent.status).toBe(404);
    expect(missingParent.body).toEqual(aipError(5, /^Not found: group ".*" not found$/, 'NOT_FOUND'));
    // v1 collection names leave in v2 words
    const absent = childUid(B, 'no-binding');
    const binding = await v2('DELETE', `/iam/v2beta1/roleBindings/${absent}`);
    expect(binding.body).toEqual(aipError(5, `Not found: roleBindings "${absent}" not found`, 'NOT_FOUND', 'iam.chainguard.dev'));
    const association = await v2('DELETE', `/iam/v2beta1/accountAssociations/${absent}`);
    expect(association.body.message).toBe(`Not found: accountAssociations "${absent}" not found`);
  });

  it('PATCH changes only the fields present, and keeps the rest', async () => {
    const created = await v2('POST', `/iam/v2beta1/groups/${B}`, { body: { name: 'patch-me', description: 'keep me' } });
    const res = await v2('PATCH', `/iam/v2beta1/groups/${created.body.uid}`, { body: { name: 'patched' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      uid: created.body.uid,
      name: 'patched',
      description: 'keep me',
      resourceLimits: {},
      verified: false,
      createTime: created.body.createTime,
      updateTime: anyTime(),
    });
    const masked = await v2('PATCH', `/iam/v2beta1/groups/${created.body.uid}?updateMask=description`, { body: { name: 'ignored', description: 'new' } });
    expect(masked.body).toMatchObject({ name: 'patched', description: 'new' });
    const unknown = await v2('PATCH', `/iam/v2beta1/groups/${created.body.uid}`, { body: { colour: 'blue' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(
      aipError(3, 'Invalid argument: colour: unknown field "colour"', 'INVALID_ARGUMENT', 'iam.chainguard.dev', [
        badRequest([{ field: 'colour', description: 'unknown field "colour"' }]),
      ]),
    );
  });
});
