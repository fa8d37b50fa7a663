import http2 from 'node:http2';
import { join } from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CreateGroupRequestSchema, GroupsService } from '../../src/gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import { A, A_TEAM, TOKENS } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { exchange, frame } from '../support/raw-h2.js';

const PROTO = join(import.meta.dirname, '../../proto');
const definition = protoLoader.loadSync(['chainguard/platform/iam/v2beta1/groups.proto'], { includeDirs: [PROTO], longs: String, enums: String, oneofs: true });
const iam = (grpc.loadPackageDefinition(definition) as any).chainguard.platform.iam.v2beta1;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('HTTP/2: bounded sessions, resets that stop the work, gRPC messages checked', () => {
  let env: ProxyOnEmulator;
  let v1Stats: () => Promise<Record<string, number>>;
  beforeAll(async () => {
    env = await startProxyOnEmulator({ BODY_LIMIT: '10000', LOG_LEVEL: 'silent' });
    v1Stats = async () => (await env.h.dev('GET', '/__emulator/stats')).body.requests as Record<string, number>;
  });
  beforeEach(async () => {
    await env.h.dev('DELETE', '/__emulator/faults');
    await env.h.dev('POST', '/__emulator/stats/reset');
  });
  afterAll(() => env?.close());

  it('a session is told its bounds: 100 concurrent streams and a 16 KiB header list; more streams wait their turn', async () => {
    const session = http2.connect(env.proxy.url);
    try {
      const settings = await new Promise<http2.Settings>((resolve) => session.once('remoteSettings', resolve));
      expect(settings.maxConcurrentStreams).toBe(100);
      expect(settings.maxHeaderListSize).toBe(16 * 1024);
      // 150 at once on one connection: all answered (the client holds back what is over the bound)
      await env.h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1/groups', delayMs: 100 }] } });
      const answers = await Promise.all(
        Array.from({ length: 150 }, () =>
          exchange(session, { ':path': `/iam/v2beta1/groups/${A}`, authorization: `Bearer ${TOKENS.alice}` }, undefined, 10_000),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(150).fill(200));
    } finally {
      session.destroy();
    }
  });

  it('a header list over 16 KiB is refused', async () => {
    const session = http2.connect(env.proxy.url);
    session.on('error', () => undefined);
    try {
      // the bound holds once the client has the server's settings (as the protocol has it)
      await new Promise((resolve) => session.once('remoteSettings', resolve));
      await exchange(session, { ':path': '/healthz' }, undefined);
      const answer = await exchange(session, { ':path': '/healthz', 'x-big': 'x'.repeat(20 * 1024) }, undefined);
      expect(answer.status).toBeUndefined();
      expect(answer.closed).toBe(true);
      expect(answer.rstCode).toBe(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
    } finally {
      session.destroy();
    }
  });

  it('a stream reset by the client stops its work: the write that would follow the read is never made', async () => {
    // a PATCH reads the group, then writes it back: the read is slowed, the client resets meanwhile
    await env.h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1/groups', method: 'GET', delayMs: 400 }] } });
    const session = http2.connect(env.proxy.url);
    try {
      const stream = session.request({
        ':method': 'PATCH',
        ':path': `/iam/v2beta1/groups/${A_TEAM}?update_mask=description`,
        authorization: `Bearer ${TOKENS.alice}`,
        'content-type': 'application/json',
      });
      stream.on('error', () => undefined);
      stream.end(JSON.stringify({ description: 'never written' }));
      await sleep(150);
      stream.close(http2.constants.NGHTTP2_CANCEL);
      // the read would have returned by now, and the write would have followed at once
      await sleep(700);
      const stats = await v1Stats();
      expect(Object.keys(stats).filter((k) => k.startsWith('GET /iam/v1/groups'))).toHaveLength(1);
      expect(Object.keys(stats).filter((k) => k.startsWith('PUT '))).toEqual([]);
      const group = await env.h.dev('GET', `/iam/v1/groups?id=${A_TEAM}`);
      expect(group.body.items[0].description).not.toBe('never written');
    } finally {
      session.destroy();
    }
  });

  it('a gRPC call the client cancels (its deadline) stops too', async () => {
    await env.h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1/groups', method: 'GET', delayMs: 400 }] } });
    const client = new iam.GroupsService(new URL(env.proxy.url).host, grpc.credentials.createInsecure());
    try {
      const metadata = new grpc.Metadata();
      metadata.set('authorization', TOKENS.alice);
      const err = await new Promise<grpc.ServiceError>((resolve) =>
        client.UpdateGroup(
          { group: { uid: A_TEAM, description: 'never written either' }, updateMask: { paths: ['description'] } },
          metadata,
          { deadline: Date.now() + 150 },
          (e: grpc.ServiceError) => resolve(e),
        ),
      );
      expect(err.code).toBe(grpc.status.DEADLINE_EXCEEDED);
      await sleep(700);
      expect(Object.keys(await v1Stats()).filter((k) => k.startsWith('PUT '))).toEqual([]);
    } finally {
      client.close();
    }
  });

  it('a client that resets most of its streams has its session ended (GOAWAY ENHANCE_YOUR_CALM)', async () => {
    await env.h.dev('POST', '/__emulator/faults', { body: { rules: [{ prefix: '/iam/v1/groups', delayMs: 200 }] } });
    const session = http2.connect(env.proxy.url);
    session.on('error', () => undefined);
    const goaway = new Promise<number>((resolve) => session.once('goaway', (code: number) => resolve(code)));
    let sent = 0;
    try {
      for (let batch = 0; batch < 10 && !session.closed && !session.destroyed; batch += 1) {
        for (let i = 0; i < 50 && !session.closed && !session.destroyed; i += 1) {
          const stream = session.request({ ':path': `/iam/v2beta1/groups/${A}`, authorization: `Bearer ${TOKENS.alice}` });
          stream.on('error', () => undefined);
          sent += 1;
          setImmediate(() => stream.close(http2.constants.NGHTTP2_CANCEL));
        }
        await sleep(30);
      }
      expect(await Promise.race([goaway, sleep(3_000).then(() => 'none')])).toBe(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
      // ended after about a hundred resets, not after all of them
      expect(sent).toBeLessThan(500);
    } finally {
      session.destroy();
    }
    // other clients are served meanwhile
    const res = await fetch(`${env.proxy.url}/iam/v2beta1/groups/${A}`, { headers: { authorization: `Bearer ${TOKENS.alice}` } });
    expect(res.status).toBe(200);
  });

  const huge = toBinary(CreateGroupRequestSchema, create(CreateGroupRequestSchema, { parent: A, group: { name: 'big', description: 'x'.repeat(50_000) } }));
  const garbage = new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]);
  const path = '/chainguard.platform.iam.v2beta1.GroupsService/CreateGroup';

  it('a gRPC message over BODY_LIMIT is RESOURCE_EXHAUSTED at once on gRPC, gRPC-Web and Connect, and its stream is ended', async () => {
    // raw HTTP/2: the client keeps its side open, as one still sending would
    const session = http2.connect(env.proxy.url);
    try {
      const started = Date.now();
      let answeredAt = 0;
      const answer = await exchange(
        session,
        { ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', authorization: TOKENS.alice },
        frame(huge),
        5_000,
        () => {
          answeredAt = Date.now();
        },
      );
      expect(answer.grpcStatus).toBe('8');
      expect(answeredAt - started).toBeLessThan(1_000);
      // the rest of the message is read and dropped; a client that never finishes is reset
      expect(answer.closed).toBe(true);
      expect(answer.rstCode).toBe(http2.constants.NGHTTP2_NO_ERROR);
    } finally {
      session.destroy();
    }
    const transports = {
      grpc: createGrpcTransport({ baseUrl: env.proxy.url }),
      grpcWeb: createGrpcWebTransport({ baseUrl: env.proxy.url, httpVersion: '1.1' }),
      connect: createConnectTransport({ baseUrl: env.proxy.url, httpVersion: '1.1', useBinaryFormat: true }),
    };
    for (const [name, transport] of Object.entries(transports)) {
      const client = createClient(GroupsService, transport);
      const started = Date.now();
      const err = await client
        .createGroup({ parent: A, group: { name: 'big', description: 'x'.repeat(50_000) } }, { headers: { authorization: TOKENS.alice }, timeoutMs: 10_000 })
        .then(
          () => undefined,
          (e: unknown) => ConnectError.from(e),
        );
      expect(err?.code, name).toBe(Code.ResourceExhausted);
      expect(err?.rawMessage, name).toBe('Resource exhausted: request body is larger than the configured limit');
      expect(Date.now() - started, name).toBeLessThan(1_500);
    }
  });

  it('a message that is not the method protobuf is INVALID_ARGUMENT on every transport, in the one error shape', async () => {
    const session = http2.connect(env.proxy.url);
    try {
      const answer = await exchange(
        session,
        { ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', authorization: TOKENS.alice },
        frame(garbage),
      );
      expect(answer.grpcStatus).toBe('3');
      expect(answer.grpcMessage).toMatch(
        /^Invalid argument: malformed request: the message is not a valid chainguard\.platform\.iam\.v2beta1\.CreateGroupRequest: /,
      );
    } finally {
      session.destroy();
    }
    const web = await fetch(`${env.proxy.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/grpc-web+proto', 'x-grpc-web': '1', authorization: TOKENS.alice },
      body: frame(garbage),
    });
    expect(Buffer.from(await web.arrayBuffer()).toString('utf8')).toContain('grpc-status: 3');
    const connect = await fetch(`${env.proxy.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/proto', 'connect-protocol-version': '1', authorization: `Bearer ${TOKENS.alice}` },
      body: garbage,
    });
    expect(connect.status).toBe(400);
    expect(await connect.json()).toMatchObject({
      code: 'invalid_argument',
      message: expect.stringMatching(/^Invalid argument: malformed request: the message is not a valid/),
    });
    // nothing reached v1
    expect(Object.keys(await v1Stats()).filter((k) => k.startsWith('POST '))).toEqual([]);
  });
});
