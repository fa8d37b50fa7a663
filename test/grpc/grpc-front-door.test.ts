import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { create, createRegistry, fromBinary, toBinary } from '@bufbuild/protobuf';
import { anyUnpack, FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { Agent, request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestSchema, ErrorInfoSchema, PreconditionFailureSchema } from '../../src/gen/google/rpc/error_details_pb.js';
import { GetGroupRequestSchema, GroupSchema } from '../../src/gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import { StatusSchema } from '../../src/gen/google/rpc/status_pb.js';
import { A, TOKENS } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

const PROTO = join(import.meta.dirname, '../../proto');
const FILES = ['groups', 'identities', 'roles', 'role_bindings'].map((f) => `chainguard/platform/iam/v2beta1/${f}.proto`);
// a grpc-js client built from the project's protos, as a third party would build one
const definition = protoLoader.loadSync(FILES, { includeDirs: [PROTO], longs: String, enums: String, defaults: false, oneofs: true });
const iam = (grpc.loadPackageDefinition(definition) as any).chainguard.platform.iam.v2beta1;

type Unary = (request: unknown, metadata: grpc.Metadata, callback: (err: grpc.ServiceError | null, value: any) => void) => void;
function call(client: grpc.Client, method: string, request: unknown, token: string = TOKENS.alice): Promise<any> {
  const metadata = new grpc.Metadata();
  metadata.set('authorization', token); // bare, as the platform's SDK sends it
  return new Promise((resolve, reject) =>
    ((client as unknown as Record<string, Unary>)[method] as Unary).call(client, request, metadata, (err, value) => (err ? reject(err) : resolve(value))),
  );
}

/** The details of a gRPC error, decoded from grpc-status-details-bin. */
function detailsOf(err: grpc.ServiceError) {
  const raw = err.metadata.get('grpc-status-details-bin')[0] as Buffer;
  const status = fromBinary(StatusSchema, raw);
  const registry = createRegistry(ErrorInfoSchema, BadRequestSchema, PreconditionFailureSchema);
  return { code: status.code, message: status.message, details: status.details.map((d) => anyUnpack(d, registry)) };
}

describe('gRPC on the REST port (h2c), with a grpc-js client from the protos', () => {
  let env: ProxyOnEmulator;
  let target: string;
  const clients: grpc.Client[] = [];
  const client = (Service: new (target: string, creds: grpc.ChannelCredentials) => grpc.Client) => {
    const c = new Service(target, grpc.credentials.createInsecure());
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    env = await startProxyOnEmulator();
    target = new URL(env.proxy.url).host;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await env.close();
  });

  it('the access-setup flow: group, identity, viewer role, hydrated binding; REST keeps working on the same port meanwhile', async () => {
    const groups = client(iam.GroupsService);
    const [group, rest] = await Promise.all([
      call(groups, 'CreateGroup', { parent: A, group: { name: 'grpc-team', description: 'made over gRPC' } }),
      fetch(`${env.proxy.url}/iam/v2beta1/groups/${A}`, { headers: { authorization: `Bearer ${TOKENS.alice}` } }),
    ]);
    expect(rest.status).toBe(200);
    expect(group).toMatchObject({ name: 'grpc-team', description: 'made over gRPC', createTime: { seconds: expect.any(String) } });
    expect(group.uid).toMatch(new RegExp(`^${A}/[0-9a-f]{16}$`));
    expect(await call(groups, 'GetGroup', { uid: group.uid })).toMatchObject({ uid: group.uid, name: 'grpc-team' });

    const identity = await call(client(iam.IdentitiesService), 'CreateIdentity', {
      parent: group.uid,
      identity: { name: 'deployer', claimMatch: { issuer: 'https://token.actions.githubusercontent.com', subject: 'repo:acme/app' } },
    });
    expect(identity).toMatchObject({
      name: 'deployer',
      relationship: 'claimMatch',
      claimMatch: { issuer: 'https://token.actions.githubusercontent.com', subject: 'repo:acme/app' },
    });

    const roles = await call(client(iam.RolesService), 'ListRoles', { uidp: { descendantsOf: A }, name: 'viewer' });
    expect(roles.roles).toHaveLength(1);
    expect(roles.roles[0].capabilities).toContain('CAP_IAM_GROUPS_LIST');

    const bindings = client(iam.RoleBindingsService);
    const binding = await call(bindings, 'CreateRoleBinding', { parent: group.uid, roleBinding: { identityUid: identity.uid, roleUid: roles.roles[0].uid } });
    expect(binding).toMatchObject({
      identity: { uid: identity.uid, name: 'deployer' },
      group: { uid: group.uid, name: 'grpc-team' },
      role: { name: 'viewer' },
    });
    expect(await call(bindings, 'GetRoleBinding', { uid: binding.uid })).toMatchObject({ uid: binding.uid, identity: { uid: identity.uid } });

    // an update with a mask, and one without (the fields set in the message)
    const renamed = await call(groups, 'UpdateGroup', { group: { uid: group.uid, description: 'renamed' }, updateMask: { paths: ['description'] } });
    expect(renamed).toMatchObject({ uid: group.uid, name: 'grpc-team', description: 'renamed' });
    const unmasked = await call(groups, 'UpdateGroup', { group: { uid: group.uid, name: 'grpc-team-2' } });
    expect(unmasked).toMatchObject({ name: 'grpc-team-2', description: 'renamed' });

    // cleanup in the flow's order: binding, identity, group
    await call(bindings, 'DeleteRoleBinding', { uid: binding.uid });
    await expect(call(bindings, 'GetRoleBinding', { uid: binding.uid })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    await call(client(iam.IdentitiesService), 'DeleteIdentity', { uid: identity.uid });
    expect(await call(groups, 'DeleteGroup', { uid: group.uid })).toEqual({});
    await expect(call(groups, 'GetGroup', { uid: group.uid })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
  });

  it('a list walk with page tokens sees every group once, with totals', async () => {
    const groups = client(iam.GroupsService);
    const seen: string[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const page = await call(groups, 'ListGroups', { uidp: { descendantsOf: A }, pageSize: 1, orderBy: 'name', pageToken });
      seen.push(...page.groups.map((g: { uid: string }) => g.uid));
      expect(Number(page.totalCount)).toBeGreaterThanOrEqual(seen.length);
      pageToken = page.nextPageToken ?? ''; // an empty string is not sent at all
      pages += 1;
    } while (pageToken !== '' && pages < 50);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    const rest = (await (
      await fetch(`${env.proxy.url}/iam/v2beta1/groups?uidp.descendants_of=${A}&page_size=200`, { headers: { authorization: `Bearer ${TOKENS.alice}` } })
    ).json()) as { groups: { uid: string }[] };
    expect(seen.sort()).toEqual(rest.groups.map((g) => g.uid).sort());
  });

  it("v2's two documented errors: code, the REST message, and ErrorInfo + BadRequest / PreconditionFailure in grpc-status-details-bin", async () => {
    const groups = client(iam.GroupsService);
    const invalid = (await call(groups, 'CreateGroup', { parent: A, group: { name: 'NOT VALID' } }).catch((e) => e)) as grpc.ServiceError;
    expect(invalid.code).toBe(grpc.status.INVALID_ARGUMENT);
    // grpc-message is percent-encoded on the wire; grpc-js decodes it with decodeURI, which leaves
    // reserved characters (":", ",", "$") encoded, so the text is read back in full here
    expect(decodeURIComponent(invalid.details)).toBe('Invalid argument: name: name must match "^[a-z0-9 ._-]{1,}$"');
    const decoded = detailsOf(invalid);
    expect(decoded.code).toBe(3);
    expect(decoded.message).toBe('Invalid argument: name: name must match "^[a-z0-9 ._-]{1,}$"');
    expect(decoded.details[0]).toMatchObject({ $typeName: 'google.rpc.ErrorInfo', reason: 'INVALID_ARGUMENT', domain: 'iam.chainguard.dev' });
    expect(decoded.details[1]).toMatchObject({
      $typeName: 'google.rpc.BadRequest',
      fieldViolations: [{ field: 'name', description: 'name must match "^[a-z0-9 ._-]{1,}$"' }],
    });

    const notEmpty = (await call(groups, 'DeleteGroup', { uid: A }).catch((e) => e)) as grpc.ServiceError;
    expect(notEmpty.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(decodeURIComponent(notEmpty.details)).toBe('Precondition failed: cannot delete group with child repos');
    expect(detailsOf(notEmpty).details[1]).toMatchObject({
      $typeName: 'google.rpc.PreconditionFailure',
      violations: [{ type: 'RESOURCE_NOT_EMPTY', description: 'cannot delete group with child repos' }],
    });

    const noToken = (await call(groups, 'GetGroup', { uid: A }, '').catch((e) => e)) as grpc.ServiceError;
    expect(noToken.code).toBe(grpc.status.UNAUTHENTICATED);

    // a message over BODY_LIMIT is refused, as a REST body would be
    const huge = (await call(groups, 'CreateGroup', { parent: A, group: { name: 'big', description: 'x'.repeat(2 * 1024 * 1024) } }).catch(
      (e) => e,
    )) as grpc.ServiceError;
    expect(huge.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
  });

  it('server reflection (v1 and v1alpha) lists the services and serves their descriptors, as grpcurl needs', async () => {
    for (const version of ['v1', 'v1alpha']) {
      const loaded = protoLoader.loadSync(`grpc/reflection/${version}/reflection.proto`, { includeDirs: [PROTO], oneofs: true });
      const Reflection = (grpc.loadPackageDefinition(loaded) as any).grpc.reflection[version].ServerReflection;
      const reflection = client(Reflection);
      const stream = (reflection as any).ServerReflectionInfo();
      const answers: any[] = [];
      const done = new Promise<void>((resolve, reject) => {
        stream.on('data', (a: unknown) => answers.push(a));
        stream.on('end', resolve);
        stream.on('error', reject);
      });
      stream.write({ listServices: '*' });
      stream.write({ fileContainingSymbol: 'chainguard.platform.iam.v2beta1.GroupsService.GetGroup' });
      stream.write({ fileByFilename: 'platform/common/v1/uidp.platform.proto' });
      stream.end();
      await done;
      const names = answers[0].listServicesResponse.service.map((s: { name: string }) => s.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'chainguard.platform.iam.v2beta1.GroupsService',
          'chainguard.platform.vulnerabilities.v2beta1.AdvisoriesService',
          `grpc.reflection.${version}.ServerReflection`,
        ]),
      );
      expect(names).toHaveLength(12);
      const files = answers[1].fileDescriptorResponse.fileDescriptorProto.map((b: Buffer) => fromBinary(FileDescriptorProtoSchema, b));
      expect(files[0].name).toBe('chainguard/platform/iam/v2beta1/groups.proto');
      expect(files[0].service[0].method.map((m: { name: string }) => m.name)).toEqual(['GetGroup', 'DeleteGroup', 'ListGroups', 'CreateGroup', 'UpdateGroup']);
      expect(files.map((f: { name: string }) => f.name)).toContain('google/protobuf/timestamp.proto');
      expect(fromBinary(FileDescriptorProtoSchema, answers[2].fileDescriptorResponse.fileDescriptorProto[0]).messageType[0]?.name).toBe('UIDPFilter');
    }
  });

  it('a gRPC-Web call (HTTP/1.1, binary frames) with plain fetch', async () => {
    const message = toBinary(GetGroupRequestSchema, create(GetGroupRequestSchema, { uid: A }));
    const frame = Buffer.concat([Buffer.from([0, 0, 0, 0, message.length]), message]);
    const res = await fetch(`${env.proxy.url}/chainguard.platform.iam.v2beta1.GroupsService/GetGroup`, {
      method: 'POST',
      headers: { 'content-type': 'application/grpc-web+proto', 'x-grpc-web': '1', authorization: TOKENS.alice },
      body: frame,
    });
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body[0]).toBe(0); // a data frame, then the trailers frame
    const length = body.readUInt32BE(1);
    expect(fromBinary(GroupSchema, body.subarray(5, 5 + length))).toMatchObject({ uid: A, name: 'tenant-a' });
    expect(body.subarray(5 + length + 5).toString('utf8')).toContain('grpc-status: 0');
  });

  it('a Connect call (HTTP/1.1, JSON) with plain fetch: the third protocol', async () => {
    const res = await fetch(`${env.proxy.url}/chainguard.platform.iam.v2beta1.GroupsService/GetGroup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKENS.alice}`, 'x-request-id': 'connect-call-1' },
      body: JSON.stringify({ uid: A }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('connect-call-1');
    expect(await res.json()).toMatchObject({ uid: A, name: 'tenant-a' });
    const metrics = await (await fetch(`${env.proxy.url}/metrics`, { headers: { authorization: `Bearer ${env.proxy.settings.adminToken}` } })).text();
    expect(metrics).toMatch(
      /v2proxy_requests_total\{protocol="grpc",resource="groups",operation="get",backend="translate",status="200",outcome="answered",decision="no-native-backend"\} [1-9]/,
    );
  });
});

describe('TLS (TLS_CERT_FILE, TLS_KEY_FILE): ALPN offers h2 for gRPC and http/1.1 for REST on one port', () => {
  const TLS = join(import.meta.dirname, '../support/tls');
  const ca = readFileSync(join(TLS, 'test-cert.pem'));
  let env: ProxyOnEmulator;
  beforeAll(async () => {
    env = await startProxyOnEmulator({ TLS_CERT_FILE: join(TLS, 'test-cert.pem'), TLS_KEY_FILE: join(TLS, 'test-key.pem') });
  });
  afterAll(() => env.close());

  it('a grpc-js client over TLS and a REST client over HTTPS/1.1 both get their answer', async () => {
    expect(env.proxy.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const groups = new iam.GroupsService(new URL(env.proxy.url).host, grpc.credentials.createSsl(ca)) as grpc.Client;
    try {
      expect(await call(groups, 'GetGroup', { uid: A })).toMatchObject({ uid: A, name: 'tenant-a' });
      const created = await call(groups, 'CreateGroup', { parent: A, group: { name: 'over-tls' } });
      const seen: string[] = [];
      let pageToken = '';
      do {
        const page = await call(groups, 'ListGroups', { uidp: { childrenOf: A }, pageSize: 1, pageToken });
        seen.push(...page.groups.map((g: { uid: string }) => g.uid));
        pageToken = page.nextPageToken ?? '';
      } while (pageToken !== '');
      expect(seen).toContain(created.uid);
      expect(new Set(seen).size).toBe(seen.length);
    } finally {
      groups.close();
    }
    const agent = new Agent({ connect: { ca } });
    try {
      const res = await undiciRequest(`${env.proxy.url}/iam/v2beta1/groups/${A}`, { dispatcher: agent, headers: { authorization: `Bearer ${TOKENS.alice}` } });
      expect(res.statusCode).toBe(200);
      expect(((await res.body.json()) as { name: string }).name).toBe('tenant-a');
    } finally {
      await agent.close();
    }
  });
});
