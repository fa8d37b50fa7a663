import http2 from 'node:http2';
import { create, toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetGroupRequestSchema } from '../../src/gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import { call } from '../support/emulator-harness.js';
import { requestsCounted } from '../support/requests-counted.js';
import { A_TEAM, TOKENS } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { frame, grpcHeaders, roundTrip } from '../support/raw-h2.js';

const ADMIN = 'admin-token-for-counting-answers';
const PATH = '/chainguard.platform.iam.v2beta1.GroupsService/GetGroup';
const getGroup = (extra: Record<string, string> = {}) => grpcHeaders(PATH, TOKENS.alice, extra);

// Every answer is counted once with its protocol, those a door gives before the pipeline runs
// (decision "refused") as much as the pipeline's own.
describe('every answer counts, refused ones included', () => {
  let env: ProxyOnEmulator;
  const metrics = async () => (await call(env.proxy.url, 'GET', '/metrics', { token: ADMIN })).body as string;
  beforeAll(async () => {
    env = await startProxyOnEmulator({ ADMIN_TOKEN: ADMIN, BODY_LIMIT: '10000' });
  });
  afterAll(() => env?.close());

  it("the REST door's own answers: an unknown path under a v2 prefix, a method a resource does not take, a body that is not JSON", async () => {
    const before = await metrics();
    const unknown = await call(env.proxy.url, 'GET', '/iam/v2beta1/nothingHere', { token: TOKENS.alice });
    const wrong = await call(env.proxy.url, 'PUT', `/iam/v2beta1/groups/${A_TEAM}`, { token: TOKENS.alice, body: {} });
    const unreadable = await call(env.proxy.url, 'PATCH', `/iam/v2beta1/groups/${A_TEAM}`, {
      token: TOKENS.alice,
      raw: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect([unknown.status, wrong.status, unreadable.status]).toEqual([404, 501, 400]);
    const after = await metrics();
    const delta = (labels: Record<string, string>) => requestsCounted(after, labels) - requestsCounted(before, labels);
    expect(delta({ protocol: 'rest', resource: 'unknown', status: '404', decision: 'refused' })).toBe(1);
    expect(delta({ protocol: 'rest', resource: 'groups', operation: 'unknown', status: '501', decision: 'refused' })).toBe(1);
    expect(delta({ protocol: 'rest', resource: 'groups', operation: 'update', status: '400', decision: 'refused' })).toBe(1);
    // nothing counted twice
    expect(delta({ protocol: 'rest' })).toBe(3);
  });

  it('gRPC calls refused before they ran, on the plain fast path and through connect: a message too large, a message that is not protobuf', async () => {
    const before = await metrics();
    const session = http2.connect(env.proxy.url);
    try {
      const large = frame(Buffer.alloc(20_000));
      const broken = frame(Buffer.from([0xff, 0xff, 0xff]));
      const answers = await Promise.all([
        roundTrip(session, getGroup(), large),
        roundTrip(session, getGroup({ 'grpc-encoding': 'gzip' }), large),
        roundTrip(session, getGroup(), broken),
        roundTrip(session, getGroup({ 'grpc-encoding': 'gzip' }), broken),
        roundTrip(session, getGroup(), frame(Buffer.from(toBinary(GetGroupRequestSchema, create(GetGroupRequestSchema, { uid: A_TEAM }))))),
      ]);
      expect(answers.map((a) => a.trailers['grpc-status'] ?? a.headers['grpc-status'])).toEqual(['8', '8', '3', '3', '0']);
    } finally {
      session.destroy();
    }
    const after = await metrics();
    const delta = (labels: Record<string, string>) => requestsCounted(after, labels) - requestsCounted(before, labels);
    expect(delta({ protocol: 'grpc', resource: 'groups', operation: 'get', decision: 'refused' })).toBe(4);
    expect(delta({ protocol: 'grpc', resource: 'groups', operation: 'get' })).toBe(5);
  });

  it('v1 passthrough answers, read straight off the socket or written through the route, count under protocol v1', async () => {
    const before = await metrics();
    const read = await call(env.proxy.url, 'GET', `/iam/v1/groups?id=${A_TEAM}`, { token: TOKENS.alice });
    const refusedWrite = await call(env.proxy.url, 'POST', `/iam/v1/groups/${A_TEAM}`, {
      token: TOKENS.alice,
      raw: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(read.status).toBe(200);
    expect(refusedWrite.status).toBeGreaterThanOrEqual(400);
    const after = await metrics();
    const delta = (labels: Record<string, string>) => requestsCounted(after, labels) - requestsCounted(before, labels);
    expect(delta({ protocol: 'v1', operation: 'read', status: '200', decision: 'passthrough' })).toBe(1);
    expect(delta({ protocol: 'v1', operation: 'write', status: String(refusedWrite.status), decision: 'passthrough' })).toBe(1);
  });
});
