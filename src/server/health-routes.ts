import type { FastifyInstance } from 'fastify';
import { apiError } from '../errors/error-registry.js';
import type { V1Probe } from '../upstream/v1-probe.js';
import type { Lifecycle } from './lifecycle.js';
import { sendError } from './send-error.js';

export type StateStoreCheck = () => Promise<{ ok: true } | { ok: false; reason: string }>;

/**
 * `/healthz`: the process serves (a liveness probe: it stays 200 while draining). `/readyz`: send
 * traffic here: not draining, the v1 backend answers, and Redis answers when it is configured.
 */
export function registerHealthRoutes(app: FastifyInstance, probe: V1Probe, lifecycle: Lifecycle, stateStore?: StateStoreCheck): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    if (lifecycle.phase !== 'serving') return sendError(reply, apiError('SHUTTING_DOWN'));
    const [v1, store] = await Promise.all([probe.check(), stateStore ? stateStore() : { ok: true as const }]);
    if (!store.ok) return sendError(reply, apiError('STATE_STORE_UNAVAILABLE', { reason: store.reason }));
    if (!v1.ok) return sendError(reply, apiError('V1_NOT_READY', { reason: v1.reason }));
    return { status: 'ready' };
  });
}
