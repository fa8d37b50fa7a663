import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import type { RolloutController } from '../rollout/rollout-controller.js';
import type { DiffBook } from '../shadow/diff-book.js';
import { renderReportHtml } from '../shadow/render-report.js';

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `/admin/*` opens only with `Authorization: Bearer <ADMIN_TOKEN>`; no v2 client token ever does. */
function requireAdmin(req: FastifyRequest, adminToken: string): void {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  if (token === undefined) throw new ApiError(GrpcCode.UNAUTHENTICATED, 'the admin API needs Authorization: Bearer <ADMIN_TOKEN>');
  if (!sameSecret(token, adminToken)) throw new ApiError(GrpcCode.UNAUTHENTICATED, 'the admin token is not valid');
}

/** The rollout admin API and the Prometheus metrics. */
export function registerAdminRoutes(
  app: FastifyInstance,
  opts: { adminToken: string; rollout: RolloutController; metrics: ProxyMetrics; diffs: DiffBook },
): void {
  const { rollout } = opts;
  app.register(async (admin) => {
    admin.addHook('onRequest', async (req) => requireAdmin(req, opts.adminToken));
    admin.get('/admin/rollout', async () => rollout.status());
    admin.post('/admin/rollout/kill', async () => {
      rollout.setKillSwitch(true);
      return rollout.status();
    });
    admin.post('/admin/rollout/resume', async () => {
      rollout.setKillSwitch(false);
      return rollout.status();
    });
    admin.post('/admin/rollout/reload', async (_req, reply) => {
      const result = rollout.reload();
      if (!result.ok)
        throw new ApiError(GrpcCode.FAILED_PRECONDITION, `the rollout file was refused, the last good configuration stays in force: ${result.error}`);
      return reply.send(rollout.status());
    });
    admin.get('/admin/diff', async (_req, reply) => {
      const html = renderReportHtml(opts.diffs.report(), { title: 'v2proxy: translation vs native', generatedAt: new Date().toISOString() });
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    });
    admin.get('/admin/diff.json', async (_req, reply) => reply.header('cache-control', 'no-store').send(opts.diffs.report()));
    admin.post('/admin/diff/reset', async () => {
      opts.diffs.reset();
      return opts.diffs.report();
    });
  });
  app.get('/metrics', async (_req, reply) => {
    reply.header('content-type', opts.metrics.registry.contentType);
    return opts.metrics.registry.metrics();
  });
}
