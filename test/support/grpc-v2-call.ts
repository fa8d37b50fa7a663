import { createRegistry, type DescMethodUnary, type DescService, fromBinary, fromJson, type JsonValue, toBinary, toJson } from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';
import { httpStatusOf } from '../../src/errors/grpc-codes.js';
import { BadRequestSchema, ErrorInfoSchema, PreconditionFailureSchema } from '../../src/gen/google/rpc/error_details_pb.js';
import { StatusSchema } from '../../src/gen/google/rpc/status_pb.js';
import { GRPC_SERVICES } from '../../src/server/grpc-routes.js';
import type { Answer } from './emulator-harness.js';

const SERVICES: DescService[] = GRPC_SERVICES.map(([service]) => service);
const DETAILS = createRegistry(ErrorInfoSchema, BadRequestSchema, PreconditionFailureSchema);

/** `/iam/v2beta1/groups` → GroupsService: the REST collection path of each service. */
function restBase(service: DescService): string {
  const api = service.typeName.split('.')[2] as string;
  return `/${api}/v2beta1/${service.name.replace(/Service$/, '').replace(/^./, (c) => c.toLowerCase())}`;
}

function methodOf(service: DescService, verb: string): DescMethodUnary {
  return service.methods.find((m) => m.name.startsWith(verb)) as DescMethodUnary;
}

/** A REST query as the fields of a List message (dotted keys nest, repeated keys repeat). */
function messageOfQuery(query: URLSearchParams): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of query) {
    const path = key.split('.');
    let at = out;
    for (const part of path.slice(0, -1)) {
      at[part] ??= {};
      at = at[part] as Record<string, JsonValue>;
    }
    const last = path[path.length - 1] as string;
    const known = at[last];
    at[last] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known as JsonValue, value];
  }
  return out;
}

export interface GrpcV2 {
  /** the same call as a REST `(method, path, body)`, made as the RPC that does it; the answer as REST would show it */
  call(method: string, path: string, body?: unknown, metadata?: Record<string, string>): Promise<Answer>;
  close(): void;
}

/**
 * A gRPC client of the v2 surface for case suites written in REST terms: grpc-js over h2c with the
 * project's generated message codecs. A message answer is its proto JSON; an error is the
 * google.rpc.Status of `grpc-status-details-bin` as JSON (the AIP-193 shape) with the HTTP status its
 * code stands for; the response metadata is the answer's headers.
 */
export function grpcV2(target: string, token: string): GrpcV2 {
  const client = new grpc.Client(target, grpc.credentials.createInsecure());
  return {
    close: () => client.close(),
    call(verbHttp, fullPath, body, extra = {}) {
      const url = new URL(fullPath, 'http://x');
      const service = SERVICES.find((s) => url.pathname === restBase(s) || url.pathname.startsWith(`${restBase(s)}/`));
      if (!service) throw new Error(`no service serves ${fullPath}`);
      const uid = url.pathname.slice(restBase(service).length + 1);
      let method: DescMethodUnary;
      let json: Record<string, JsonValue>;
      if (verbHttp === 'GET' && uid === '') {
        method = methodOf(service, 'List');
        json = messageOfQuery(url.searchParams);
      } else if (verbHttp === 'GET' || verbHttp === 'DELETE') {
        method = methodOf(service, verbHttp === 'GET' ? 'Get' : 'Delete');
        json = { uid };
      } else {
        method = methodOf(service, verbHttp === 'POST' ? 'Create' : 'Update');
        const field = method.input.fields.find((f) => f.message?.typeName === method.output.typeName)?.jsonName as string;
        const mask = url.searchParams.get('update_mask');
        json =
          verbHttp === 'POST'
            ? { parent: uid, [field]: (body ?? {}) as JsonValue }
            : { [field]: { ...(body as Record<string, JsonValue>), uid }, ...(mask ? { updateMask: mask } : {}) };
      }
      const input = fromJson(method.input, json, { ignoreUnknownFields: false });
      const metadata = new grpc.Metadata();
      metadata.set('authorization', token);
      for (const [k, v] of Object.entries(extra)) metadata.set(k, v);
      return new Promise<Answer>((resolve) => {
        let headers = new Headers();
        const call = client.makeUnaryRequest(
          `/${service.typeName}/${method.name}`,
          (m: never) => Buffer.from(toBinary(method.input, m)),
          (b: Buffer) => fromBinary(method.output, b),
          input as never,
          metadata,
          (err, value) => {
            if (!err) return resolve({ status: 200, body: toJson(method.output, value as never), headers });
            const raw = err.metadata.get('grpc-status-details-bin')[0] as Buffer | undefined;
            const status = raw
              ? toJson(StatusSchema, fromBinary(StatusSchema, raw), { registry: DETAILS })
              : { code: err.code, message: err.details, details: [] };
            resolve({ status: httpStatusOf(err.code as never), body: status, headers });
          },
        );
        call.on('metadata', (m: grpc.Metadata) => {
          headers = new Headers(Object.entries(m.getMap()).map(([k, v]) => [k, String(v)]));
        });
      });
    },
  };
}
