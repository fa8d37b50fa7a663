import type { FastifyInstance } from 'fastify';
import { callerAuthorization } from '../auth/caller-identity.js';
import { type ExchangeSettings, exchangeParams, exchangeToken } from '../auth/sts-exchange.js';
import { httpStatusOf } from '../errors/grpc-codes.js';
import { toApiError } from '../errors/to-api-error.js';
import type { Tracing } from '../telemetry/tracing.js';
import { traceContextOf } from '../upstream/trace-context.js';
import type { V1Client } from '../upstream/v1-client.js';
import type { Lifecycle } from './lifecycle.js';

/** Parses `application/x-www-form-urlencoded` into repeated-key values (the STS's POST form). */
export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    const params: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
    for (const [k, v] of new URLSearchParams(body as string)) {
      const values = params[k] ?? [];
      values.push(v);
      params[k] = values;
    }
    done(null, params);
  });
}

/** The proxy's own token exchange endpoint. */
export function registerStsRoutes(
  app: FastifyInstance,
  issuer: V1Client,
  lifecycle: Lifecycle,
  settings: () => ExchangeSettings,
  tracing: Tracing | undefined,
): void {
  app.route({
    method: ['GET', 'POST'],
    url: '/sts/exchange',
    handler: async (req, reply) => {
      const trace = traceContextOf(req.headers);
      // traced: a server span, and the issuer's attempts as client spans under it
      const traced = tracing?.httpRequest(req.method, '/sts/exchange', trace);
      let status = 500;
      try {
        const params = exchangeParams(req.method === 'GET' ? req.query : req.body);
        const token = await exchangeToken(
          issuer,
          {
            method: req.method as 'GET' | 'POST',
            params,
            authorization: callerAuthorization(req.headers.authorization),
            requestId: req.id,
            signal: lifecycle.requestSignal(reply.raw),
            trace,
            spans: traced,
            purpose: 'token-exchange',
          },
          settings(),
        );
        status = 200;
        return token;
      } catch (err) {
        status = httpStatusOf(toApiError(err).code);
        throw err;
      } finally {
        traced?.end({ status });
      }
    },
  });
}
