import { Code, ConnectError, createClient, type Transport } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupsService } from '../../src/gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import type { DescMethodUnary } from '@bufbuild/protobuf';
import { BadRequestSchema, ErrorInfoSchema } from '../../src/gen/google/rpc/error_details_pb.js';
import { GRPC_SERVICES } from '../../src/server/grpc-routes.js';
import { call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, A_TEAM, TOKENS } from '../support/fixtures.js';

describe("the emulator's native surface over gRPC, gRPC-Web and Connect, on its REST port", () => {
  let h: EmulatorHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const transports: [string, () => Transport][] = [
    ['gRPC (h2c)', () => createGrpcTransport({ baseUrl: h.v2url })],
    ['gRPC-Web (HTTP/1.1)', () => createGrpcWebTransport({ baseUrl: h.v2url, httpVersion: '1.1' })],
    ['Connect (HTTP/1.1)', () => createConnectTransport({ baseUrl: h.v2url, httpVersion: '1.1' })],
  ];
  for (const [name, transport] of transports) {
    it(`${name}: the same answers as its REST, errors with their code, text and details`, async () => {
      const groups = createClient(GroupsService, transport());
      const headers = { authorization: TOKENS.alice };
      const got = await groups.getGroup({ uid: A_TEAM }, { headers });
      const rest = await call(h.v2url, 'GET', `/iam/v2beta1/groups/${A_TEAM}`, { token: TOKENS.alice });
      expect([got.uid, got.name, got.description]).toEqual([rest.body.uid, rest.body.name, rest.body.description]);
      const listed = await groups.listGroups({ uidp: { descendantsOf: A }, pageSize: 1 }, { headers });
      expect(listed.groups).toHaveLength(1);
      expect(listed.nextPageToken).not.toBe('');
      const missing = `${A}/00000000000000ab`;
      const err = await groups.getGroup({ uid: missing }, { headers }).catch((e: unknown) => ConnectError.from(e));
      expect(err).toBeInstanceOf(ConnectError);
      expect([(err as ConnectError).code, (err as ConnectError).rawMessage]).toEqual([Code.NotFound, `Not found: groups/${missing}`]);
      expect((err as ConnectError).findDetails(ErrorInfoSchema)[0]).toMatchObject({ reason: 'NOT_FOUND', domain: 'iam.chainguard.dev' });
    });

    it(`${name}: a Create with no parent is authenticated first, then refused naming \`parent\` (groups alone may create at the root)`, async () => {
      const creates = GRPC_SERVICES.map(
        ([service]) => [service, service.methods.find((m) => m.name.startsWith('Create')) as DescMethodUnary | undefined] as const,
      );
      const seen: string[] = [];
      for (const [service, create] of creates) {
        if (!create) continue;
        seen.push(create.name);
        const client = createClient(service, transport()) as unknown as Record<string, (req: object, opts?: object) => Promise<unknown>>;
        const send = client[create.localName] as (req: object, opts?: object) => Promise<unknown>;
        const anonymous = await send({}).catch((e: unknown) => ConnectError.from(e));
        expect([create.name, (anonymous as ConnectError).code]).toEqual([create.name, Code.Unauthenticated]);
        const refused = await send({}, { headers: { authorization: TOKENS.alice } }).catch((e: unknown) => ConnectError.from(e));
        expect([create.name, (refused as ConnectError).code]).toEqual([create.name, Code.InvalidArgument]);
        const fields = (refused as ConnectError).findDetails(BadRequestSchema)[0]?.fieldViolations.map((v) => v.field);
        // a root group is created with no parent: what is missing then is its name
        expect([create.name, fields]).toEqual([create.name, create.name === 'CreateGroup' ? ['name'] : ['parent']]);
      }
      expect(seen).toHaveLength(7);
    });
  }

  it('over REST too: a POST with no parent, a wrong method and an unknown path are authenticated before they are routed', async () => {
    for (const plural of ['roles', 'roleBindings', 'identities', 'identityProviders', 'accountAssociations', 'groupInvites']) {
      const path = `/iam/v2beta1/${plural}`;
      expect([plural, (await call(h.v2url, 'POST', path, { body: {} })).status]).toEqual([plural, 401]);
      const refused = await call(h.v2url, 'POST', path, { token: TOKENS.alice, body: {} });
      expect([plural, refused.status, refused.body.details?.[1]?.fieldViolations?.[0]?.field]).toEqual([plural, 400, 'parent']);
    }
    expect((await call(h.v2url, 'PATCH', '/iam/v2beta1/roles')).status).toBe(401);
    expect((await call(h.v2url, 'PATCH', '/iam/v2beta1/roles', { token: TOKENS.alice })).status).toBe(501);
    expect((await call(h.v2url, 'GET', '/iam/v2beta1/nothing-here')).status).toBe(401);
    expect((await call(h.v2url, 'GET', '/iam/v2beta1/nothing-here', { token: TOKENS.alice })).status).toBe(404);
    const noUid = await call(h.v2url, 'DELETE', '/iam/v2beta1/roles/', { token: TOKENS.alice });
    expect([noUid.status, noUid.body.details?.[1]?.fieldViolations?.[0]?.field]).toEqual([400, 'uid']);
  });
});
