import type { FastifyInstance } from 'fastify';
import { apiError } from '../errors/error-registry.js';
import type { V1Probe } from '../upstream/v1-probe.js';
import { sendError } from './send-error.js';

/** `/healthz`: the proxy serves. `/readyz`: the proxy serves and the v1 backend answers. */
export function registerHealthRoutes(app: FastifyInstance, probe: V1Probe): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const result = await probe.check();
    if (result.ok) return { status: 'ready' };
    return sendError(reply, apiError('V1_NOT_READY', { reason: result.reason }));
  });
}
