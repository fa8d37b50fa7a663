// The gRPC floor of the bench, never used by the product: a hand-written gRPC server for one RPC
// (GetIdentity) on node:http2's stream API over h2c, reading the request message, making the same
// translated v1 call as the minimal REST proxy (minimal-get.ts) and writing the answer as a protobuf
// message with its trailers; nothing else (no logs, no deadlines, no compression). Prints its URL.
import { fromBinary, fromJson, type JsonValue, toBinary } from '@bufbuild/protobuf';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { GetIdentityRequestSchema, IdentitySchema } from '../../src/gen/chainguard/platform/iam/v2beta1/identities_pb.js';
import { minimalGet, PREFIX } from './minimal-get.js';

const PATH = '/chainguard.platform.iam.v2beta1.IdentitiesService/GetIdentity';

const server = http2.createServer();
server.on('stream', (stream, headers) => {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', async () => {
    const end = (status: number, message?: Uint8Array) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': String(status) }));
      if (message === undefined) return stream.end();
      const frame = Buffer.alloc(5 + message.length);
      frame.writeUInt32BE(message.length, 1);
      frame.set(message, 5);
      stream.end(frame);
    };
    if (headers[':path'] !== PATH) return end(12);
    const body = Buffer.concat(chunks);
    const request = fromBinary(GetIdentityRequestSchema, body.subarray(5));
    const auth = headers.authorization as string | undefined;
    const { status, text } = await minimalGet(`${PREFIX}${request.uid}`, auth);
    if (status !== 200) return end(status === 404 ? 5 : 14);
    end(0, toBinary(IdentitySchema, fromJson(IdentitySchema, JSON.parse(text) as JsonValue, { ignoreUnknownFields: true })));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`minimal gRPC proxy listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
