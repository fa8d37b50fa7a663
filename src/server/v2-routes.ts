import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerFingerprint } from '../auth/caller-fingerprint.js';
import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import { listResource } from '../operations/list-resource.js';
import type { RawQuery } from '../list/query-params.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import type { RouteTable } from '../mapping/route-table.js';
import { createResource } from '../operations/create-resource.js';
import { deleteResource } from '../operations/delete-resource.js';
import { getResource } from '../operations/get-resource.js';
import type { AppServices, OperationContext } from '../operations/operation-context.js';
import { updateResource } from '../operations/update-resource.js';
import { UID_RULE_TEXT, isUidp } from '../uidp/uidp.js';
import type { V1Client } from '../upstream/v1-client.js';
import { noRoute } from './no-route.js';

const OPERATION_OF: Record<string, 'get' | 'create' | 'update' | 'delete'> = { GET: 'get', POST: 'create', PATCH: 'update', DELETE: 'delete' };

function wrongMethod(req: FastifyRequest, resource: CompiledResource): ApiError {
  const op = OPERATION_OF[req.method];
  const reason = op ? resource.mapping.v2.unsupported[op] : undefined;
  return new ApiError(GrpcCode.UNIMPLEMENTED, reason ?? `${req.method} is not a method of ${req.url.split('?', 1)[0]}`);
}

function requireUid(value: string, field: string): string {
  if (!isUidp(value)) throw ApiError.invalidArgument([{ field, description: `${field} ${UID_RULE_TEXT}` }]);
  return value;
}

function allows(resource: CompiledResource, op: CompiledResource['mapping']['v2']['operations'][number]): boolean {
  return resource.mapping.v2.operations.includes(op);
}

/** The whole v2 surface: one catch-all per v2 prefix, dispatched through the compiled route table. */
export function registerV2Routes(app: FastifyInstance, table: RouteTable, v1: V1Client, services: AppServices): void {
  const handler = async (req: FastifyRequest) => {
    const route = table.match(req.url);
    if (!route) throw noRoute(req);
    const { resource } = route;
    const authorization = req.headers.authorization;
    const ctx: OperationContext = { ...services, resource, v1, authorization, requestId: req.id, caller: callerFingerprint(authorization) };
    if (route.kind === 'verb') {
      if (!resource.mapping.v2.verbs.includes(route.verb)) throw noRoute(req);
      throw new ApiError(GrpcCode.UNIMPLEMENTED, `${resource.mapping.resource}:${route.verb} is not served by the proxy`);
    }
    if (route.kind === 'collection') {
      if (req.method === 'GET' && allows(resource, 'list')) return listResource(ctx, req.query as RawQuery);
      if (req.method === 'POST' && allows(resource, 'create') && resource.mapping.rootParent) return createResource(ctx, '', req.body);
      throw wrongMethod(req, resource);
    }
    if (route.uid === '') {
      if (req.method === 'POST' && allows(resource, 'create') && resource.mapping.rootParent) return createResource(ctx, '', req.body);
      throw noRoute(req);
    }
    switch (req.method) {
      case 'GET':
        if (allows(resource, 'get')) return getResource(ctx, requireUid(route.uid, 'uid'));
        break;
      case 'POST':
        if (allows(resource, 'create')) return createResource(ctx, requireUid(route.uid, 'parent'), req.body);
        break;
      case 'PATCH':
        if (allows(resource, 'update')) return updateResource(ctx, requireUid(route.uid, 'uid'), req.body, req.query as RawQuery);
        break;
      case 'DELETE':
        if (allows(resource, 'delete')) return deleteResource(ctx, requireUid(route.uid, 'uid'));
        break;
      default:
        break;
    }
    throw wrongMethod(req, resource);
  };
  for (const prefix of table.prefixes) {
    app.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'], url: `${prefix}/*`, exposeHeadRoute: false, handler });
  }
}
