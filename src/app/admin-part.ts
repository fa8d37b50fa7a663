import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { AdminOperators } from '../auth/admin-operators.js';
import type { ResolvedSettings } from '../config/settings-schema.js';
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import type { Rollout } from '../rollout/start-rollout.js';
import { registerAdminRoutes } from '../server/admin-routes.js';
import type { FastifyRequestCalls } from '../server/fastify-request-calls.js';
import type { ReplicaDiffReport } from '../shadow/replica-diff-report.js';
import type { FleetPresence } from './fleet-presence-part.js';
import type { Part } from './part-list.js';
import { adminFastify } from './proxy-fastify.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** with ADMIN_PORT: the admin surface's own app, for the caller to listen with (closed with this one) */
    adminApp?: FastifyInstance;
  }
}

/**
 * The admin surface: on a listener of its own with ADMIN_PORT (closed first, with its operators'
 * calls answered), else on the API's.
 */
export function openAdmin(
  settings: ResolvedSettings,
  app: FastifyInstance,
  p: {
    operators: AdminOperators;
    logs: DestinationStream;
    calls: FastifyRequestCalls;
    rollout: Rollout;
    metrics: ProxyMetrics;
    diffs: ReplicaDiffReport;
    presence: FleetPresence;
  },
): Part {
  if (p.operators.size === 0)
    app.log.warn(
      'the admin API is off: no ADMIN_TOKEN, ADMIN_TOKENS or ADMIN_TOKENS_FILE is set, and with REDIS_URL no replica makes a token of its own (each would have another)',
    );
  const adminApp = settings.adminPort !== undefined ? adminFastify(settings, p.logs, p.calls) : undefined;
  if (adminApp) app.decorate('adminApp', adminApp);
  registerAdminRoutes(adminApp ?? app, {
    operators: p.operators,
    rollout: p.rollout,
    metrics: p.metrics,
    diffs: { report: (window) => p.diffs.report(window), since: () => p.diffs.startedAt() },
    fleet: () => p.presence.view(),
  });
  return { name: 'admin', close: async () => adminApp?.close() };
}
