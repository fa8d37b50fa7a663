import { createContextValues } from '@connectrpc/connect';
import type { FastifyInstance } from 'fastify';
import type { ResolvedSettings } from '../config/settings-schema.js';
import type { RequestCall } from '../exchange/request-call.js';
import { registerConnectRoutes } from '../server/connect-routes.js';
import { drainLimits } from '../server/dual-protocol-server.js';
import type { FastifyRequestCalls } from '../server/fastify-request-calls.js';
import { reflectionRoutes } from '../server/grpc-reflection.js';
import { CALL, GRPC_SERVICES, grpcProcedures, grpcRoutes, grpcStatusOf, namedCall } from '../server/grpc-routes.js';
import { grpcStreamCalls } from '../server/grpc-stream-calls.js';
import type { Lifecycle } from '../server/lifecycle.js';
import type { NativeGrpcClient } from '../upstream/native-grpc-client.js';
import type { Part } from './part-list.js';
import type { Pipeline } from './pipeline-part.js';
import type { FastDoors } from './proxy-fastify.js';

/**
 * The gRPC front doors on the same listener: plain gRPC served off its HTTP/2 streams, gRPC-Web
 * and Connect through fastify, and reflection. What they serve ends with the listener; closed,
 * nothing more is taken before fastify.
 */
export async function openGrpcDoors(
  settings: ResolvedSettings,
  app: FastifyInstance,
  p: { pipeline: Pipeline; nativeGrpc: NativeGrpcClient | undefined; lifecycle: Lifecycle; calls: FastifyRequestCalls; doors: FastDoors },
): Promise<Part> {
  const { services, pipeline, around } = p.pipeline;
  const procedures = grpcProcedures({ resources: services.resources, pipeline, native: p.nativeGrpc });
  p.doors.stream = grpcStreamCalls({
    procedures,
    limit: settings.bodyLimit,
    requestTimeoutMs: settings.requestTimeoutMs,
    unread: drainLimits(settings),
    lifeOf: (stream) => p.lifecycle.streamLife(stream),
    around,
  });
  const grpcOpener = p.calls.opener('grpc');
  await registerConnectRoutes(app, {
    routes: (router) => {
      grpcRoutes(procedures)(router);
      reflectionRoutes(GRPC_SERVICES.map(([service]) => service))(router);
    },
    contextValues: (req) => createContextValues().set(CALL, req.call),
    // a message is bounded like a REST body (after decompression)
    readMaxBytes: settings.bodyLimit,
    shutdownSignal: p.lifecycle.shutdownSignal,
    statusOf: (service, err) => grpcStatusOf(services.resources, service, err),
    // a call of one of the 40 RPCs is counted with its resource and operation (reflection is not counted)
    opener: (path) => {
      const procedure = procedures.get(path);
      if (!procedure) return (_req, _reply, done) => done();
      return (req, reply, done) => {
        namedCall(req.call as RequestCall, procedure);
        grpcOpener.call(app, req, reply, done);
      };
    },
    rendered: (req, reply) => p.calls.rendered(req, reply),
  });
  return {
    name: 'gRPC doors',
    close: () => {
      p.doors.stream = undefined;
    },
  };
}
