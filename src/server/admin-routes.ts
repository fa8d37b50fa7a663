import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_PERMISSIONS, type AdminOperators, type AdminRole, type Operator, roleAllows } from '../auth/admin-operators.js';
import { apiError } from '../errors/error-registry.js';
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { sameOperations } from '../rollout/control-document.js';
import { type ChangeOptions, type ChangeResult, ControlRefusedError } from '../rollout/control-plane.js';
import { PROGRESS_ACTIONS, type ProgressAction } from '../rollout/route-progress.js';
import type { Rollout } from '../rollout/start-rollout.js';
import { type DiffReport, REPORT_WINDOWS, type ReportWindow } from '../shadow/diff-book.js';
import { splitWrites } from '../shadow/write-book.js';

/** The report as `/admin/diff.json` gives it: the shadow's reads under `routes`, the verified writes under `writes`. */
function diffJson(report: DiffReport) {
  const { reads, writes } = splitWrites(report);
  return { routes: reads.routes, writes: writes.routes };
}
import { renderReportHtml } from '../shadow/render-report.js';
import { type ConsoleView, renderConsoleHtml } from './console-page.js';
import { commandBody, commandOptions, etagOf, refusedCommand } from './admin-command.js';

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

/** One query parameter as text (a repeated one is refused). */
function param(query: unknown, name: string, pattern: RegExp): string | undefined {
  const value = (query as Record<string, unknown>)[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !pattern.test(value)) throw apiError('BAD_REQUEST', { reason: `${name}: not a valid value` });
  return value;
}

/** `?window=`: one of the report's windows, or none (all since the last reset). */
function windowOf(query: unknown): ReportWindow | undefined {
  return param(query, 'window', new RegExp(`^(${Object.keys(REPORT_WINDOWS).join('|')})$`)) as ReportWindow | undefined;
}

const PAGE_CSP = (script: string) =>
  `default-src 'none'; style-src 'unsafe-inline'; ${script}connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

/** An admin page: never cached, never framed, nothing loaded from elsewhere. */
function page(reply: FastifyReply, html: string, nonce?: string): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', PAGE_CSP(nonce ? `script-src 'nonce-${nonce}'; ` : ''))
    .send(html);
}

export interface AdminDeps {
  /** none: the admin API is off */
  operators: AdminOperators;
  rollout: Rollout;
  metrics: ProxyMetrics;
  /** the diff report (the fleet's, with REDIS_URL); an operator's reset is a change of the control state, which every replica follows */
  diffs: { report(window?: ReportWindow): Promise<DiffReport>; since(): Promise<number> };
  /** the fleet's replicas (this replica's own view while Redis is away) */
  fleet(): Promise<Record<string, unknown>>;
}

declare module 'fastify' {
  interface FastifyRequest {
    operator?: Operator;
  }
  interface FastifyContextConfig {
    /** the role an admin route needs */
    adminRole?: AdminRole;
  }
}

/** What the admin commands share: each done exactly once, answered with the control state's ETag. */
function commandsOf(deps: AdminDeps) {
  const { rollout } = deps;
  const routeStatus = (resource: string, operations: readonly string[]) => {
    return (rollout.status().routes as { resource: string; operations: string[] }[]).find(
      (r) => r.resource === resource && sameOperations(r.operations, operations),
    );
  };
  /**
   * An admin command: exactly once. A repeat with its `Idempotency-Key` is answered from its record
   * (`idempotent-replayed: true`), on any replica; `If-Match` (or a route command's `fromStep`)
   * names the state it was decided on; every answer carries the control state's ETag.
   */
  const command = async (
    req: FastifyRequest,
    reply: FastifyReply,
    action: string,
    apply: (opts: ChangeOptions, actor: string) => Promise<ChangeResult>,
    route?: { resource: string; operations: readonly string[] },
  ): Promise<ChangeResult> => {
    const opts = commandOptions(req);
    try {
      const made = (await rollout.control.recorded(opts.command)) ?? (await apply(opts, (req.operator as Operator).name));
      if (made.kind === 'replayed') void reply.header('idempotent-replayed', 'true');
      void reply.header('etag', etagOf(rollout.control.snapshot));
      return made;
    } catch (err) {
      if (err instanceof ControlRefusedError) throw refusedCommand(err, action, rollout.control.snapshot, route);
      throw err;
    }
  };
  const routeCommand = async (req: FastifyRequest<{ Params: { resource: string; operations: string } }>, reply: FastifyReply, action: ProgressAction) => {
    const { reason, fromStep } = commandBody(req.body, true);
    const route = { resource: req.params.resource, operations: req.params.operations.split(',') };
    const made = await command(
      req,
      reply,
      action,
      (opts, actor) => rollout.control.change({ type: 'route-command', ...route, action, actor, reason, fromStep }, opts),
      route,
    );
    // asked for, not done: a second operator must do the same
    return reply.status(made.waiting ? 202 : 200).send(routeStatus(route.resource, route.operations));
  };
  const kill = async (req: FastifyRequest, reply: FastifyReply, on: boolean) => {
    const { reason } = commandBody(req.body, false);
    await command(req, reply, on ? 'kill' : 'resume', (opts, actor) => rollout.control.change({ type: 'kill-switch', on, actor, reason }, opts));
    return rollout.status();
  };

  return { command, routeCommand, kill };
}

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Each admin call's handler, by `METHOD path` as ADMIN_PERMISSIONS names it. */
function handlersOf(deps: AdminDeps): Map<string, Handler> {
  const { rollout } = deps;
  const { command, routeCommand, kill } = commandsOf(deps);
  return new Map<string, Handler>([
    [
      'GET /admin',
      async (req, reply) => {
        const nonce = randomBytes(16).toString('base64');
        const view: ConsoleView = {
          status: rollout.status() as unknown as ConsoleView['status'],
          traffic: await rollout.fleetTraffic(),
          fleet: (await deps.fleet()) as unknown as ConsoleView['fleet'],
          audit: rollout.trail.query({ limit: 20 }),
          operator: req.operator as Operator,
          generatedAt: new Date().toISOString(),
          nonce,
        };
        return page(reply, renderConsoleHtml(view), nonce);
      },
    ],
    [
      'GET /admin/rollout',
      async (_req, reply) => {
        void reply.header('etag', etagOf(rollout.control.snapshot));
        return { ...rollout.status(), traffic: await rollout.fleetTraffic() };
      },
    ],
    ['GET /admin/fleet', async () => deps.fleet()],
    [
      'GET /admin/audit',
      async (req) => {
        const limit = Number(param(req.query, 'limit', /^\d{1,5}$/) ?? 100);
        if (limit < 1 || limit > 1000) throw apiError('BAD_REQUEST', { reason: 'limit: from 1 to 1000' });
        const records = rollout.trail.query({
          route: param(req.query, 'route', /^[A-Za-z*]{1,64}(\/[a-z,]{1,64})?$/),
          actor: param(req.query, 'actor', /^[A-Za-z0-9._@-]{1,64}$/),
          limit,
        });
        return { records };
      },
    ],
    [
      'GET /admin/diff',
      async (req, reply) => {
        const nonce = randomBytes(16).toString('base64');
        const window = windowOf(req.query);
        const [report, since] = await Promise.all([deps.diffs.report(window), deps.diffs.since()]);
        const { reads, writes } = splitWrites(report);
        const html = renderReportHtml(reads, {
          writes,
          title: 'v2proxy: translation vs native',
          generatedAt: new Date().toISOString(),
          live: { since: new Date(since).toISOString(), window, console: '/admin', reset: '/admin/diff/reset', nonce },
        });
        return page(reply, html, nonce);
      },
    ],
    ['GET /admin/diff.json', async (req, reply) => reply.header('cache-control', 'no-store').send(diffJson(await deps.diffs.report(windowOf(req.query))))],
    ['POST /admin/rollout/kill', (req, reply) => kill(req, reply, true)],
    ['POST /admin/rollout/resume', (req, reply) => kill(req, reply, false)],
    [
      'POST /admin/rollout/reload',
      async (req, reply) => {
        commandBody(req.body, false);
        await command(req, reply, 'reload', async (opts, actor) => {
          const made = await rollout.reload(actor, opts);
          // (a command's refusal is thrown: this is only the watcher's)
          if (made.kind === 'refused') throw apiError('ROLLOUT_FILE_REFUSED', { reason: made.error });
          return made;
        });
        return rollout.status();
      },
    ],
    [
      'POST /admin/diff/reset',
      async (req, reply) => {
        const { reason } = commandBody(req.body, false);
        // a change of the control state like any command (kept in the audit trail): every replica's report begins again from it
        await command(req, reply, 'reset', (opts, actor) => rollout.control.change({ type: 'diff-reset', actor, reason }, opts));
        return diffJson(await deps.diffs.report());
      },
    ],
    ...PROGRESS_ACTIONS.map((action): [string, Handler] => [
      `POST /admin/rollout/routes/:resource/:operations/${action}`,
      (req, reply) => routeCommand(req as FastifyRequest<{ Params: { resource: string; operations: string } }>, reply, action),
    ]),
  ]);
}

/**
 * The admin surface: who may do what is ADMIN_PERMISSIONS (each route is registered from it), every
 * call named by its operator in the audit trail; and the Prometheus metrics.
 */
export function registerAdminRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const { operators } = deps;
  const handlers = handlersOf(deps);
  app.register(async (admin) => {
    admin.addHook('onRequest', async (req, reply) => {
      void reply.header('x-content-type-options', 'nosniff');
      if (operators.size === 0) throw apiError('ADMIN_API_OFF');
      const token = adminTokenOf(req.headers.authorization);
      const operator = token === undefined ? undefined : operators.authenticate(token);
      if (!operator) {
        // a browser shows its login prompt for this; the password is the operator's token
        void reply.header('www-authenticate', 'Basic realm="v2proxy admin", charset="UTF-8"');
        throw apiError(token === undefined ? 'ADMIN_TOKEN_MISSING' : 'ADMIN_TOKEN_INVALID');
      }
      req.operator = operator;
      // permission before anything else is looked at (the route, its state)
      const needed = req.routeOptions.config.adminRole;
      if (needed && !roleAllows(operator.role, needed)) throw apiError('ADMIN_ROLE_REQUIRED', { name: operator.name, role: operator.role, needed });
      if (req.method !== 'GET' && req.method !== 'HEAD' && crossSite(req)) throw apiError('ADMIN_CROSS_ORIGIN');
    });
    for (const p of ADMIN_PERMISSIONS) {
      const handler = handlers.get(`${p.method} ${p.path}`);
      if (!handler) throw new Error(`no handler for the admin call ${p.method} ${p.path}`);
      admin.route({ method: p.method, url: p.path, config: { adminRole: p.role }, handler });
    }
  });
  if (handlers.size !== ADMIN_PERMISSIONS.length) throw new Error('an admin handler has no entry in ADMIN_PERMISSIONS');
  app.get('/metrics', async (_req, reply) => {
    reply.header('content-type', deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });
}
