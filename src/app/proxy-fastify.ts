import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { ResolvedSettings } from '../config/settings-schema.js';
import { requestIdOf } from '../exchange/request-id.js';
import { clientErrorHandler } from '../server/client-error.js';
import { dualProtocolServer, type RequestTaker, type StreamTaker } from '../server/dual-protocol-server.js';
import type { FastifyRequestCalls } from '../server/fastify-request-calls.js';
import { registerJsonBody } from '../server/json-body.js';
import { lazyChildLogger } from '../server/lazy-child-logger.js';
import type { Lifecycle } from '../server/lifecycle.js';
import { loggerOptions } from '../server/logger-options.js';
import { answerInOneShape, frameworkErrors } from '../server/one-error-shape.js';

/** What the listener serves before fastify: plain gRPC calls off their HTTP/2 streams, and v1 reads (each set once its door is open). */
export interface FastDoors {
  stream?: StreamTaker | undefined;
  request?: RequestTaker | undefined;
}

/** What both listeners' fastify share: the same request ids, log lines and error shape. */
function sharedOptions(settings: ResolvedSettings, logs: DestinationStream, calls: FastifyRequestCalls) {
  return {
    logger: loggerOptions(settings.logLevel, logs),
    genReqId: requestIdOf,
    logController: calls,
    childLoggerFactory: lazyChildLogger,
    requestIdHeader: false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    frameworkErrors,
  } as const;
}

/**
 * The API's fastify: REST and gRPC on one listener (HTTP/1.1 and h2c by the connection's first
 * bytes, or TLS with ALPN; silent, idle and surplus connections closed, HTTP/2 bounded, all of it
 * drained on shutdown), every request's id, log line and error shape written once.
 */
export function proxyFastify(settings: ResolvedSettings, logs: DestinationStream, calls: FastifyRequestCalls, lifecycle: Lifecycle, doors: FastDoors) {
  const app = Fastify({
    serverFactory: (handler) =>
      dualProtocolServer(
        handler as never,
        {
          headersTimeoutMs: settings.headersTimeoutMs,
          requestTimeoutMs: settings.requestTimeoutMs,
          idleTimeoutMs: settings.idleTimeoutMs,
          maxConnections: settings.maxConnections,
          maxConcurrentStreams: settings.http2MaxStreams,
          bodyLimit: settings.bodyLimit,
          tls: settings.tlsCertFile && settings.tlsKeyFile ? { certFile: settings.tlsCertFile, keyFile: settings.tlsKeyFile } : undefined,
          takeStream: (stream, headers) => doors.stream?.(stream, headers) ?? false,
          takeRequest: (req, res) => doors.request?.(req, res) ?? false,
        },
        lifecycle.connections,
      ) as never,
    // while closing, requests on kept-alive connections are served (and told Connection: close), not refused
    return503OnClosing: false,
    bodyLimit: settings.bodyLimit,
    clientErrorHandler,
    ...sharedOptions(settings, logs, calls),
  });
  // v2 bodies are JSON (or the STS form); plain text is refused rather than read as an empty body.
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);
  calls.serve(app);
  answerInOneShape(app);
  return app;
}

/** A listener of the admin surface alone (ADMIN_PORT): the same request ids, log lines and error shape as the API's. */
export function adminFastify(settings: ResolvedSettings, logs: DestinationStream, calls: FastifyRequestCalls): FastifyInstance {
  const admin = Fastify({ bodyLimit: 64 * 1024, ...sharedOptions(settings, logs, calls) });
  calls.serve(admin);
  answerInOneShape(admin);
  return admin;
}
