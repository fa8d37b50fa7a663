import { type DescMessage, type DescMethod, type DescMethodUnary, type DescService, fromJson, type JsonValue, type Message, toJson } from '@bufbuild/protobuf';
import { callerAuthorization } from '../auth/caller-identity.js';
import { ConnectError, type ConnectRouter, createContextKey, type HandlerContext } from '@connectrpc/connect';
import { ApiError } from '../errors/api-error.js';
import { type GrpcCodeNumber, httpStatusOf } from '../errors/grpc-codes.js';
import type { Exchange } from '../exchange/exchange.js';
import type { RequestCall } from '../exchange/request-call.js';
import type { Door, ExchangePipeline, Served } from '../exchange/exchange-pipeline.js';
import { AccountAssociationsService } from '../gen/chainguard/platform/iam/v2beta1/account_associations_pb.js';
import { GroupInvitesService } from '../gen/chainguard/platform/iam/v2beta1/group_invites_pb.js';
import { GroupsService } from '../gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import { IdentitiesService } from '../gen/chainguard/platform/iam/v2beta1/identities_pb.js';
import { IdentityProvidersService } from '../gen/chainguard/platform/iam/v2beta1/identity_providers_pb.js';
import { RoleBindingsService } from '../gen/chainguard/platform/iam/v2beta1/role_bindings_pb.js';
import { RolesService } from '../gen/chainguard/platform/iam/v2beta1/roles_pb.js';
import { ReposService } from '../gen/chainguard/platform/registry/v2beta1/repos_pb.js';
import { TagsService } from '../gen/chainguard/platform/registry/v2beta1/tags_pb.js';
import { AdvisoriesService } from '../gen/chainguard/platform/vulnerabilities/v2beta1/advisories_pb.js';
import type { Json } from '../json/json-path.js';
import { queryFromMessage } from '../list/query-from-message.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import { jsonValueOf } from '../json/json-text.js';
import type { RawQuery } from '../list/query-params.js';
import type { Operation } from '../rollout/rollout-config.js';
import type { NativeGrpcAnswer, NativeGrpcClient } from '../upstream/native-grpc-client.js';
import { traceContextOf } from '../upstream/trace-context.js';
import { grpcErrorOf } from './grpc-error.js';
import type { LifeSignal } from '../upstream/request-life.js';

/** The ten v2beta1 services, each with the resource (mapping) it serves. */
export const GRPC_SERVICES: readonly [DescService, string][] = [
  [GroupsService, 'groups'],
  [IdentitiesService, 'identities'],
  [RolesService, 'roles'],
  [RoleBindingsService, 'roleBindings'],
  [IdentityProvidersService, 'identityProviders'],
  [AccountAssociationsService, 'accountAssociations'],
  [GroupInvitesService, 'groupInvites'],
  [ReposService, 'repos'],
  [TagsService, 'tags'],
  [AdvisoriesService, 'advisories'],
];

/** The call as the lifecycle keeps it (its request id taken from `x-request-id` or made, as for REST). */
export const CALL = createContextKey<RequestCall | undefined>(undefined);

const JSON_READ = { ignoreUnknownFields: true } as const;

const restPathOf = (resource: CompiledResource) => `${resource.prefix}/${resource.segment}`;

/** An error of the registry as the status of a call to `service` (its resource's domain). */
export function grpcStatusOf(resources: ReadonlyMap<string, CompiledResource>, service: DescService, err: ApiError): ConnectError {
  const name = GRPC_SERVICES.find(([s]) => s.typeName === service.typeName)?.[1];
  const resource = name === undefined ? undefined : resources.get(name);
  return grpcErrorOf(err, resource ? restPathOf(resource) : '/');
}

/** The field of a Create/Update request that holds the resource (`group`, `roleBinding`, …). */
function resourceField(input: DescMessage, resource: DescMessage): string | undefined {
  return input.fields.find((f) => f.message?.typeName === resource.typeName)?.jsonName;
}

/** A gRPC call as it goes to the native backend: the method and the caller's message. */
interface GrpcWire {
  method: DescMethodUnary;
  message: Message;
}

const VERB: Record<string, Operation> = { Get: 'get', List: 'list', Create: 'create', Update: 'update', Delete: 'delete' };

/** A request message (as proto JSON) as the inputs of its operation. */
function inputsOf(method: DescMethod, operation: Operation, json: Json): Pick<Exchange, 'input' | 'pageToken'> {
  switch (operation) {
    case 'list':
      return {
        input: { uid: '', uidField: 'uid', body: undefined, query: queryFromMessage(json as JsonValue) },
        pageToken: (json.pageToken as string | undefined) || undefined,
      };
    case 'create': {
      const field = resourceField(method.input, method.output) as string;
      return {
        input: { uid: typeof json.parent === 'string' ? json.parent : '', uidField: 'parent', body: json[field] ?? {}, query: {} },
        pageToken: undefined,
      };
    }
    case 'update': {
      const field = resourceField(method.input, method.output) as string;
      const { uid, ...body } = (json[field] ?? {}) as Json;
      // no mask: the fields set in the message (proto JSON leaves out the unset ones)
      const mask = typeof json.updateMask === 'string' ? json.updateMask : '';
      const query: RawQuery = mask === '' ? {} : { update_mask: mask };
      return { input: { uid: typeof uid === 'string' ? uid : '', uidField: `${field}.uid`, body, query }, pageToken: undefined };
    }
    default:
      return { input: { uid: typeof json.uid === 'string' ? json.uid : '', uidField: 'uid', body: undefined, query: {} }, pageToken: undefined };
  }
}

/** The REST form of a call (what the record file keeps and a replay reads). */
function restUrlOf(resource: CompiledResource, ex: Pick<Exchange, 'operation' | 'input'>): string {
  const base = restPathOf(resource);
  if (ex.operation !== 'list') return ex.input.uid === '' ? base : `${base}/${ex.input.uid}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(ex.input.query)) for (const one of Array.isArray(value) ? value : [value ?? '']) params.append(key, one);
  const query = params.toString();
  return query === '' ? base : `${base}?${query}`;
}

/** A gRPC answer as the shadow compares it: proto JSON of the message, or the status's code and text. */
function comparableGrpc(ex: Exchange<GrpcWire>, answer: Served<NativeGrpcAnswer> | ApiError) {
  const output = ex.wire.method.output;
  const status = (e: ConnectError) => ({ status: httpStatusOf(e.code as GrpcCodeNumber), body: { code: e.code, message: e.rawMessage } });
  if (answer instanceof ApiError) return status(grpcErrorOf(answer, restPathOf(ex.resource)));
  if (answer.side === 'native') return answer.value.error ? status(answer.value.error) : { status: 200, body: toJson(output, answer.value.message) };
  try {
    return { status: 200, body: toJson(output, fromJson(output, jsonValueOf(answer.value) as JsonValue, JSON_READ)) };
  } catch (err) {
    return status(ConnectError.from(err));
  }
}

/** The gRPC door's native side: the same call on the native backend's gRPC service. */
function grpcDoor(native: NativeGrpcClient | undefined): Door<GrpcWire, NativeGrpcAnswer> {
  return {
    protocol: 'grpc',
    native: (ex, origin) => (native as NativeGrpcClient).call(ex.wire.method, ex.wire.message, origin),
    created: (ex, answer) => (answer.error ? undefined : (toJson(ex.wire.method.output, answer.message) as Json)),
    comparable: comparableGrpc,
  };
}

/** What a gRPC call brings whichever way it came (connect's handlers, or straight off an HTTP/2 stream). */
export interface GrpcCallContext {
  /** the request as the lifecycle keeps it */
  call: RequestCall;
  /** the call's metadata, lower-case names */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** the client cancelling, its grpc-timeout, or the drain's time running out */
  signal: LifeSignal;
}

/** How a call ended: its response message or its status (the side that served it is the call's). */
export type GrpcOutcome = { message: Message; error?: undefined } | { message?: undefined; error: ConnectError };

/** One of the 40 RPCs, bound to its resource and operation once at start-up. */
export interface GrpcProcedure {
  readonly method: DescMethodUnary;
  readonly resource: CompiledResource;
  readonly operation: Operation;
  run(request: Message, call: GrpcCallContext): Promise<GrpcOutcome>;
  /** an error of the registry as this call's status (its resource's domain) */
  status(err: ApiError): ConnectError;
}

const header = (headers: GrpcCallContext['headers'], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The gRPC front door: each of the 40 RPCs reads its message into an Exchange (through proto JSON:
 * the same v2 JSON shapes REST reads) and goes through the same pipeline as REST, rollout, native
 * backend and shadows included. A translated answer goes back through the response message, a
 * native one as the native backend gave it, an error of the registry as its gRPC status with the
 * same details. Keyed by the call's path (`/<service>/<method>`); how the call arrived (connect's
 * router, or the plain gRPC fast path on HTTP/2 streams) is the caller's business.
 */
export function grpcProcedures(deps: {
  resources: ReadonlyMap<string, CompiledResource>;
  pipeline: ExchangePipeline;
  native: NativeGrpcClient | undefined;
}): ReadonlyMap<string, GrpcProcedure> {
  const door = grpcDoor(deps.native);
  const run =
    (method: DescMethodUnary, resource: CompiledResource, operation: Operation) =>
    async (request: Message, call: GrpcCallContext): Promise<GrpcOutcome> => {
      const { call: requestCall, headers: given } = call;
      const { requestId } = requestCall;
      // the platform's SDK sends the token bare; v1 wants a bearer
      const authorization = callerAuthorization(header(given, 'authorization'), true);
      const headers = { ...given, authorization };
      const json = toJson(method.input, request) as Json;
      const { input, pageToken } = inputsOf(method, operation, json);
      const ex: Exchange<GrpcWire> = {
        protocol: 'grpc',
        call: requestCall,
        resource,
        operation,
        input,
        headers,
        origin: { authorization, requestId, signal: call.signal, trace: traceContextOf(headers) },
        idempotencyKey: header(given, 'idempotency-key'),
        pageToken,
        named: { method: method.name, path: `/${method.parent.typeName}` },
        restUrl: () => restUrlOf(resource, ex),
        wire: { method, message: request },
      };
      let outcome: GrpcOutcome | undefined;
      await deps.pipeline.run(ex, door, (result) => {
        try {
          if (result instanceof ApiError) outcome = { error: grpcErrorOf(result, restPathOf(resource)) };
          else if (result.side === 'native') outcome = result.value.error ? { error: result.value.error } : { message: result.value.message };
          else outcome = { message: fromJson(method.output, jsonValueOf(result.value) as JsonValue, JSON_READ) };
        } catch (err) {
          outcome = { error: ConnectError.from(err) };
        }
        const code = outcome.error?.code ?? 0;
        return { status: outcome.error ? httpStatusOf(code as GrpcCodeNumber) : 200, grpcCode: code };
      });
      // (run renders every result, a thrown error included, before it returns)
      return outcome as GrpcOutcome;
    };
  const procedures = new Map<string, GrpcProcedure>();
  for (const [service, name] of GRPC_SERVICES) {
    const resource = deps.resources.get(name);
    if (!resource) throw new Error(`no mapping for the gRPC service ${service.typeName} (resource ${name})`);
    for (const method of service.methods) {
      const operation = VERB[/^(Get|List|Create|Update|Delete)/.exec(method.name)?.[1] ?? ''];
      if (method.methodKind !== 'unary' || operation === undefined) throw new Error(`the RPC ${method.name} is not one of the five operations`);
      const unary = method as DescMethodUnary;
      const status = (err: ApiError) => grpcErrorOf(err, restPathOf(resource));
      procedures.set(`/${service.typeName}/${method.name}`, { method: unary, resource, operation, run: run(unary, resource, operation), status });
    }
  }
  return procedures;
}

/** A call's resource and operation, known from its path before it runs (a call refused before it ran is counted with them). */
export function namedCall(call: RequestCall, procedure: GrpcProcedure): void {
  call.resource = procedure.resource.mapping.resource;
  call.operation = procedure.operation;
}

/** The procedures as connect handlers (gRPC-Web, Connect, and gRPC the fast path leaves to connect). */
export function grpcRoutes(procedures: ReadonlyMap<string, GrpcProcedure>) {
  return (router: ConnectRouter) => {
    for (const procedure of procedures.values()) {
      router.rpc(procedure.method, (async (request: Message, hc: HandlerContext) => {
        const call = hc.values.get(CALL) as RequestCall;
        const outcome = await procedure.run(request, { call, headers: Object.fromEntries(hc.requestHeader), signal: hc.signal });
        if (outcome.error) throw outcome.error;
        return outcome.message;
      }) as never);
    }
  };
}
