import { timingSafeEqual } from 'node:crypto';
import { apiError } from '../errors/error-registry.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import type { RolloutController } from '../rollout/rollout-controller.js';
import type { DiffReport } from '../shadow/diff-book.js';
import { renderReportHtml } from '../shadow/render-report.js';

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The admin token of a request: `Bearer <token>`, or Basic with the token as password (what a browser's login prompt sends). */
function adminTokenOf(authorization: string | undefined): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (bearer !== undefined) return bearer;
  const basic = /^Basic\s+([A-Za-z0-9+/=]{1,2048})\s*$/i.exec(authorization ?? '')?.[1];
  if (basic === undefined) return undefined;
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

/** `/admin/*` opens only with the admin token; no v2 client token ever does. */
function requireAdmin(req: FastifyRequest, reply: FastifyReply, adminToken: string): void {
  const token = adminTokenOf(req.headers.authorization);
  if (token !== undefined && sameSecret(token, adminToken)) return;
  // a browser shows its login prompt for this; the password is the admin token
  void reply.header('www-authenticate', 'Basic realm="v2proxy admin", charset="UTF-8"');
  if (token === undefined) throw apiError('ADMIN_TOKEN_MISSING');
  throw apiError('ADMIN_TOKEN_INVALID');
}

/** The rollout admin API and the Prometheus metrics. */
export function registerAdminRoutes(
  app: FastifyInstance,
  opts: {
    adminToken: string;
    rollout: RolloutController;
    metrics: ProxyMetrics;
    /** the diff report (the fleet's, with REDIS_URL) and its reset (for every replica) */
    diffs: { report(): Promise<DiffReport>; reset(): Promise<void> };
    /** the fleet's replicas (with REDIS_URL) */
    fleet?: (() => Promise<unknown>) | undefined;
  },
): void {
  const { rollout } = opts;
  app.register(async (admin) => {
    admin.addHook('onRequest', async (req, reply) => requireAdmin(req, reply, opts.adminToken));
    admin.get('/admin/rollout', async () => rollout.status());
    admin.post('/admin/rollout/kill', async () => {
      await rollout.setKillSwitch(true);
      return rollout.status();
    });
    admin.post('/admin/rollout/resume', async () => {
      await rollout.setKillSwitch(false);
      return rollout.status();
    });
    admin.post('/admin/rollout/reload', async (_req, reply) => {
      const result = rollout.reload();
      if (!result.ok) throw apiError('ROLLOUT_FILE_REFUSED', { reason: result.error ?? 'invalid' });
      return reply.send(rollout.status());
    });
    admin.get('/admin/fleet', async () => {
      if (!opts.fleet) return { version: null, self: null, replicas: [], note: 'a single replica: REDIS_URL is not set' };
      return opts.fleet();
    });
    admin.get('/admin/diff', async (_req, reply) => {
      const html = renderReportHtml(await opts.diffs.report(), { title: 'v2proxy: translation vs native', generatedAt: new Date().toISOString() });
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    });
    admin.get('/admin/diff.json', async (_req, reply) => reply.header('cache-control', 'no-store').send(await opts.diffs.report()));
    admin.post('/admin/diff/reset', async () => {
      await opts.diffs.reset();
      return opts.diffs.report();
    });
  });
  app.get('/metrics', async (_req, reply) => {
    reply.header('content-type', opts.metrics.registry.contentType);
    return opts.metrics.registry.metrics();
  });
}
