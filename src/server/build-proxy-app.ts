import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { ResolvedSettings } from '../config/settings-schema.js';
import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import { v1Origin } from '../upstream/v1-origin.js';
import { V1Probe } from '../upstream/v1-probe.js';
import { registerHealthRoutes } from './health-routes.js';
import { loggerOptions } from './logger-options.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import { sendError } from './send-error.js';
import { toApiError } from './to-api-error.js';
import { registerV1Passthrough } from './v1-passthrough.js';

export interface ProxyAppOptions {
  /** where log lines go (tests); default stdout */
  logStream?: DestinationStream;
}

/** Assembles the proxy: health, v1 passthrough, and one error shape for everything that fails. */
export async function buildProxyApp(settings: ResolvedSettings, opts: ProxyAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(settings.logLevel, opts.logStream),
    genReqId: requestIdOf,
    requestIdHeader: false,
    bodyLimit: settings.bodyLimit,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
  const v1 = v1Origin(settings.v1BaseUrl);
  const probe = new V1Probe(v1, settings.v1TimeoutMs);
  app.addHook('onClose', () => probe.close());
  app.addHook('onSend', async (req, reply) => {
    reply.header(REQUEST_ID_HEADER, req.id);
  });

  app.setErrorHandler((err, req, reply) => {
    const apiError = toApiError(err);
    if (apiError.code === GrpcCode.INTERNAL) req.log.error({ err }, 'request failed');
    return sendError(reply, apiError);
  });
  app.setNotFoundHandler((req, reply) =>
    sendError(reply, new ApiError(GrpcCode.NOT_FOUND, `no route for ${req.method} ${req.url.split('?')[0]}`)),
  );

  registerHealthRoutes(app, probe);
  await registerV1Passthrough(app, v1, settings.v1TimeoutMs);
  return app;
}
