import { Code, ConnectError, createClient, type Transport } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupsService } from '../../src/gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import { ErrorInfoSchema } from '../../src/gen/google/rpc/error_details_pb.js';
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
  }
});
