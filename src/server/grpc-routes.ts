import { type DescMessage, type DescMethod, type DescService, fromJson, type JsonValue, toJson } from '@bufbuild/protobuf';
import { type ConnectError, type ConnectRouter, createContextKey, type HandlerContext } from '@connectrpc/connect';
import { ApiError } from '../errors/api-error.js';
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
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { createResource } from '../operations/create-resource.js';
import { deleteResource } from '../operations/delete-resource.js';
import { getResource } from '../operations/get-resource.js';
import { idempotentCreate } from '../operations/idempotent-create.js';
import { listResource } from '../operations/list-resource.js';
import { jsonValueOf } from '../json/json-text.js';
import { type AppServices, type OperationContext, operationContext } from '../operations/operation-context.js';
import { traceContextOf } from '../upstream/trace-context.js';
import { updateResource } from '../operations/update-resource.js';
import type { V1Client } from '../upstream/v1-client.js';
import { grpcErrorOf } from './grpc-error.js';
import { requireUid } from './require-uid.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { toApiError } from './to-api-error.js';

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

/** The fastify request id of the call (taken from `x-request-id` or made, as for REST). */
export const REQUEST_ID = createContextKey<string>('');

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

/**
 * The gRPC front door: each of the 40 RPCs is a thin adapter over the same operations as REST. The
 * request message becomes the REST inputs through proto JSON (the same v2 JSON shapes), the
 * answer goes back through the response message, and an error keeps its code, text and details.
 * A rollout that sends a route native does not apply here: gRPC is always translated (the
 * native backend is reached over REST).
 */
export function grpcRoutes(deps: { resources: ReadonlyMap<string, CompiledResource>; v1: V1Client; services: AppServices; metrics: ProxyMetrics }) {
  const serve = (method: DescMethod, resource: CompiledResource) => async (request: never, hc: HandlerContext) => {
    const requestId = hc.values.get(REQUEST_ID);
    hc.responseHeader.set(REQUEST_ID_HEADER, requestId);
    const given = hc.requestHeader.get('authorization') ?? undefined;
    // the platform's SDK sends the token bare; v1 wants a bearer
    const authorization = given === undefined || given === '' || /^bearer /i.test(given) ? given : `Bearer ${given}`;
    // the call's signal: the client cancelling, its grpc-timeout, or the drain's time running out
    const ctx = operationContext(deps.services, resource, deps.v1, {
      authorization,
      requestId,
      signal: hc.signal,
      trace: traceContextOf({
        traceparent: hc.requestHeader.get('traceparent'),
        tracestate: hc.requestHeader.get('tracestate'),
        baggage: hc.requestHeader.get('baggage'),
      }),
    });
    const restPath = restPathOf(resource);
    let code = 'OK';
    try {
      const json = toJson(method.input, request) as Json;
      const answer = await operate(ctx, method, json, hc);
      return fromJson(method.output, answer as JsonValue, JSON_READ);
    } catch (err) {
      const apiError = err instanceof ApiError ? err : toApiError(err);
      const grpcError = grpcErrorOf(apiError, restPath);
      code = String(grpcError.code);
      throw grpcError;
    } finally {
      deps.metrics.grpc.inc({ service: method.parent.name, method: method.name, code });
    }
  };

  return (router: ConnectRouter) => {
    for (const [service, name] of GRPC_SERVICES) {
      const resource = deps.resources.get(name);
      if (!resource) throw new Error(`no mapping for the gRPC service ${service.typeName} (resource ${name})`);
      for (const method of service.methods) router.rpc(method, serve(method, resource) as never);
    }
  };
}

async function operate(ctx: OperationContext, method: DescMethod, json: Json, hc: HandlerContext): Promise<unknown> {
  const verb = /^(Get|List|Create|Update|Delete)/.exec(method.name)?.[1];
  switch (verb) {
    case 'Get':
      return getResource(ctx, requireUid(json.uid, 'uid'));
    case 'List':
      return jsonValueOf(await listResource(ctx, queryFromMessage(json as JsonValue)));
    case 'Delete':
      await deleteResource(ctx, requireUid(json.uid, 'uid'));
      return {};
    case 'Create': {
      const field = resourceField(method.input, method.output) as string;
      const body = json[field] ?? {};
      const parent = typeof json.parent === 'string' ? json.parent : '';
      const under = parent === '' && ctx.resource.mapping.rootParent ? '' : requireUid(parent, 'parent');
      const key = hc.requestHeader.get('idempotency-key') ?? undefined;
      return idempotentCreate(ctx, key, { url: `grpc:${method.parent.typeName}/${method.name}?parent=${under}`, body }, () => createResource(ctx, under, body));
    }
    case 'Update': {
      const field = resourceField(method.input, method.output) as string;
      const { uid, ...body } = (json[field] ?? {}) as Json;
      // no mask: the fields set in the message (proto JSON leaves out the unset ones)
      const mask = typeof json.updateMask === 'string' ? json.updateMask : '';
      return updateResource(ctx, requireUid(uid, `${field}.uid`), body, mask === '' ? {} : { update_mask: mask });
    }
    default:
      throw new Error(`unknown RPC ${method.name}`);
  }
}
