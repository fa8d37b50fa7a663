import { randomBytes, timingSafeEqual } from 'node:crypto';
import { apiError } from '../errors/error-registry.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { ProgressCommandError, type RolloutController } from '../rollout/rollout-controller.js';
import { PROGRESS_ACTIONS } from '../rollout/route-progress.js';
import { type ConsoleView, renderConsoleHtml } from './console-page.js';
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

/**
 * Whether a browser says another site sent this request (a form or script of a page elsewhere
 * riding on the admin login the browser keeps): `Sec-Fetch-Site`, else `Origin` against `Host`.
 * A request with neither (curl, scripts) is not a browser's cross-site one.
 */
function crossSite(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

/** The optional `reason` of an admin change: a short text, logged with it. */
function reasonOf(body: unknown): string {
  if (body === undefined || body === null) return '';
  const reason = (body as { reason?: unknown }).reason;
  if (typeof body !== 'object' || Array.isArray(body) || (reason !== undefined && typeof reason !== 'string')) {
    throw apiError('BAD_REQUEST', { reason: 'the body is optional; when given it is {"reason": "<text>"}' });
  }
  if ((reason ?? '').length > 500) throw apiError('BAD_REQUEST', { reason: 'reason: at most 500 characters' });
  return (reason ?? '').replace(/[\r\n]+/g, ' ').trim();
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
    admin.addHook('onRequest', async (req, reply) => {
      requireAdmin(req, reply, opts.adminToken);
      if (req.method !== 'GET' && req.method !== 'HEAD' && crossSite(req)) throw apiError('ADMIN_CROSS_ORIGIN');
    });
    admin.get('/admin/rollout', async () => rollout.status());
    admin.post('/admin/rollout/kill', async (req) => {
      await rollout.setKillSwitch(true, reasonOf(req.body));
      return rollout.status();
    });
    admin.post('/admin/rollout/resume', async (req) => {
      await rollout.setKillSwitch(false, reasonOf(req.body));
      return rollout.status();
    });
    for (const action of PROGRESS_ACTIONS) {
      admin.post<{ Params: { resource: string; operations: string } }>(`/admin/rollout/routes/:resource/:operations/${action}`, async (req) => {
        const reason = reasonOf(req.body);
        try {
          return await rollout.command(req.params.resource, req.params.operations.split(','), action, 'admin', reason);
        } catch (err) {
          if (!(err instanceof ProgressCommandError)) throw err;
          if (err.kind === 'unknown-route') throw apiError('ROLLOUT_ROUTE_NOT_FOUND', { reason: err.message });
          throw apiError('ROLLOUT_TRANSITION_REFUSED', { action, reason: err.message });
        }
      });
    }
    admin.get('/admin', async (_req, reply) => {
      const nonce = randomBytes(16).toString('base64');
      const view = {
        status: rollout.status() as unknown as ConsoleView['status'],
        fleet: opts.fleet ? ((await opts.fleet()) as ConsoleView['fleet']) : null,
        generatedAt: new Date().toISOString(),
        nonce,
      };
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-frame-options', 'DENY')
        .header(
          'content-security-policy',
          `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
        )
        .send(renderConsoleHtml(view));
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
