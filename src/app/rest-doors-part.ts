import type { FastifyInstance } from 'fastify';
import type { ResolvedSettings } from '../config/settings-schema.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import { RouteTable } from '../mapping/route-table.js';
import type { FastifyRequestCalls } from '../server/fastify-request-calls.js';
import { registerHealthRoutes, type StateStoreCheck } from '../server/health-routes.js';
import type { Lifecycle } from '../server/lifecycle.js';
import { registerOpenApiRoutes } from '../server/openapi-routes.js';
import { registerFormParser, registerStsRoutes } from '../server/sts-routes.js';
import { registerV1Passthrough, v1Reads } from '../server/v1-passthrough.js';
import { registerV2Routes } from '../server/v2-routes.js';
import type { Tracing } from '../telemetry/tracing.js';
import type { Backends } from './backends-part.js';
import type { Part } from './part-list.js';
import type { Pipeline } from './pipeline-part.js';
import type { FastDoors } from './proxy-fastify.js';

export interface RestDoorParts {
  resources: readonly CompiledResource[];
  backends: Backends;
  pipeline: Pipeline;
  tracing: Tracing | undefined;
  lifecycle: Lifecycle;
  calls: FastifyRequestCalls;
  doors: FastDoors;
  /** with a fleet: whether its state is read and Redis answers */
  fleetReady: StateStoreCheck | undefined;
}

/**
 * The REST front doors: the v2 surface, the token exchange, the v1 passthrough (its reads taken
 * before fastify), health, and the contract. What they serve ends with the listener; closed,
 * nothing more is taken before fastify.
 */
export async function openRestDoors(settings: ResolvedSettings, app: FastifyInstance, p: RestDoorParts): Promise<Part> {
  const { backends, lifecycle } = p;
  registerFormParser(app);
  registerStsRoutes(app, backends.issuer, lifecycle, () => ({ publicUrl: settings.publicUrl, v1Audience: settings.v1Audience }), p.tracing);
  registerHealthRoutes(app, backends.probe, lifecycle, p.fleetReady);
  registerOpenApiRoutes(app, p.resources);
  registerV2Routes(app, new RouteTable(p.resources), p.pipeline.pipeline, backends.native?.rest, lifecycle, p.calls);
  const passthrough = { v1: backends.v1, dispatcher: backends.v1Pool.dispatcher, maxResponseBytes: settings.v1MaxResponseBytes, tracing: p.tracing };
  p.doors.request = v1Reads({ ...passthrough, around: p.pipeline.around });
  await registerV1Passthrough(app, passthrough, p.calls.opener('v1'));
  return {
    name: 'REST doors',
    close: () => {
      p.doors.request = undefined;
    },
  };
}
