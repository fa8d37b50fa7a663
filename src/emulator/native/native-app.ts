import { invalidFields, preconditionFailed } from '../../errors/error-registry.js';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { ApiError } from '../../errors/api-error.js';
import { GrpcCode } from '../../errors/grpc-codes.js';
import { renderError } from '../../errors/render-error.js';
import { isUidp } from '../../uidp/uidp.js';
import { isPlainObject } from '../body.js';
import { bodyTypeViolation } from './native-services.js';
import { type Ctx, insertRecord, isVisible, matchesExact, matchesUidp, removeRecord, replaceRecord } from '../collection.js';
import type { FaultRules } from '../fault-rules.js';
import { V1Error } from '../grpc-status.js';
import { acceptFormBodies } from '../form-body.js';
import { MethodTable } from '../method-table.js';
import { Query } from '../query.js';
import type { RequestStats } from '../request-stats.js';
import type { Json } from '../store.js';
import { applyNativeMask } from './native-mask.js';
import { nativeGrpcRoutes, restAndGrpcServer } from './native-grpc.js';
import { nativePage } from './native-list.js';
import type { NativeResource } from './native-resource.js';
import { isManagedRole, NATIVE_RESOURCES } from './native-resources.js';

export interface NativeAppOptions {
  caller: (authorization: string | undefined) => Promise<Ctx>;
  faults: FaultRules;
  stats: RequestStats;
  isDev: (authorization: string | undefined) => boolean;
  logger?: FastifyServerOptions['logger'];
  bodyLimit?: number;
  /** the token exchange, served on this host too, as the v2 service serves it beside its resources */
  sts?: (req: FastifyRequest) => Promise<unknown>;
}

const invalid = (field: string, description: string) => invalidFields([{ field, description }]);

/** A request body that must be a JSON object, refused naming `body` when it is not. */
function objectBody(value: unknown): Json {
  if (!isPlainObject(value)) throw invalid('body', 'the body must be a JSON object');
  return value;
}

function requireUid(value: string, field: string): string {
  if (!isUidp(value)) throw invalid(field, 'must be a uid (40 hex characters, then /16 hex per level)');
  return value;
}

/** v1 errors of the shared collection code leave as v2 errors of the same code and text. */
function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof V1Error) {
    // the collections refuse deletes of non-empty parents with a precondition; v2 types it
    if (err.code === GrpcCode.FAILED_PRECONDITION && err.message.startsWith('cannot delete')) {
      return preconditionFailed({ type: 'RESOURCE_NOT_EMPTY', description: err.message });
    }
    // the shared collection code names a field it cannot read: v2 names it in a BadRequest
    const unread = err.code === GrpcCode.INVALID_ARGUMENT ? /^invalid value for .*field ([\w.]+)/.exec(err.message)?.[1] : undefined;
    if (unread) return invalidFields([{ field: unread, description: err.message }]);
    return new ApiError(err.code, err.message);
  }
  const e = err as { statusCode?: number; code?: string; message?: string };
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError(GrpcCode.RESOURCE_EXHAUSTED, 'request body too large');
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) return new ApiError(GrpcCode.INVALID_ARGUMENT, e.message ?? 'bad request');
  return new ApiError(GrpcCode.INTERNAL, 'internal error');
}

/**
 * The emulator's native v2beta1 surface, REST and gRPC on one port: a second implementation of the v2beta1 API, written from the
 * v2 facts over the same store, tokens and scoping as v1 (it shares nothing with the proxy's
 * translation code). Real times, native cursors, field-mask PATCH, hydrated role bindings, AIP-193.
 */
export function buildNativeV2App(opts: NativeAppOptions): FastifyInstance {
  // gRPC beside REST on the same port, served by the same routes
  const app: FastifyInstance = Fastify({
    serverFactory: restAndGrpcServer(nativeGrpcRoutes(() => app)),
    logger: opts.logger ?? false,
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    forceCloseConnections: true,
  });
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/__emulator/')) opts.stats.record(req.method, req.url);
  });
  opts.faults.install(app);
  acceptFormBodies(app);
  app.setErrorHandler((err: unknown, req, reply) => {
    const e = toApiError(err);
    if (e.code === GrpcCode.INTERNAL) app.log.error({ err }, 'native v2 failure');
    const rendered = renderError(e, req.url);
    return reply.status(rendered.status).send(rendered.body);
  });
  // as the service does: the caller is authenticated before the request is routed
  const authenticated = async (req: FastifyRequest) => {
    await opts.caller(req.headers.authorization);
  };
  app.setNotFoundHandler(async (req, reply) => {
    await authenticated(req);
    const rendered = renderError(new ApiError(GrpcCode.NOT_FOUND, `no route for ${req.url.split('?', 1)[0]}`), req.url);
    return reply.status(404).send(rendered.body);
  });
  opts.faults.routes(app, opts.isDev);
  app.get('/__emulator/stats', async () => opts.stats.snapshot());

  const table = new MethodTable();
  for (const r of NATIVE_RESOURCES) addResource(table, r, opts.caller);
  if (opts.sts) table.on('GET', '/sts/exchange', opts.sts).on('POST', '/sts/exchange', opts.sts);
  table.register(app, authenticated);
  return app;
}

function addResource(table: MethodTable, r: NativeResource, caller: NativeAppOptions['caller']): void {
  const def = r.collection;
  const map = (ctx: Ctx) => ctx.store[def.name] as Map<string, unknown>;
  const cap = def.capability;
  const base = `${r.prefix}/${r.plural}`;
  const has = (op: NativeResource['operations'][number]) => r.operations.includes(op);
  const uidOf = (req: FastifyRequest) => (req.params as { '*': string })['*'];

  /** Permission before existence: a caller who may not act on the uid learns nothing about it. */
  const existing = (ctx: Ctx, uid: string, capability: string): unknown => {
    const rec = map(ctx).get(uid);
    if (rec !== undefined && capability.endsWith('.list') && isVisible(def, rec, ctx)) return rec;
    if (!ctx.access.can(capability, uid))
      throw new ApiError(GrpcCode.PERMISSION_DENIED, `the caller may not ${capability.split('.').at(-1)} ${r.plural} at ${uid}`);
    if (rec === undefined) throw new ApiError(GrpcCode.NOT_FOUND, `${r.plural}/${uid}`);
    return rec;
  };

  if (has('list')) {
    table.on('GET', base, async (req) => {
      const ctx = await caller(req.headers.authorization);
      const q = new Query(req.query as Record<string, string | string[]>);
      const name = q.one('name');
      if (name !== undefined && name !== '' && !r.named) throw invalid('name', `${r.plural} have no name to filter on`);
      const managedToo = r.rootShared === true && (q.one('uidp.descendants_of') || q.one('uidp.children_of'));
      const items: Json[] = [];
      for (const rec of map(ctx).values()) {
        if (!isVisible(def, rec, ctx)) continue;
        const key = def.keyOf(rec);
        // managed roles belong to every group's role list
        if (!matchesUidp(key, q) && !(managedToo && isManagedRole(key) && q.all('uidp.ids').length === 0)) continue;
        const view = r.view(rec, ctx);
        if (r.named && !matchesExact(String(view.name ?? ''), name)) continue;
        if (r.filter && !r.filter(rec, view, q)) continue;
        items.push(view);
      }
      const binding = JSON.stringify([
        r.plural,
        req.headers.authorization ?? '',
        Object.entries(req.query as Json).filter(([k]) => !/^(page_?[tT]oken|page_?[sS]ize|skip|pageToken|pageSize)$/.test(k)),
      ]);
      return nativePage(r.plural, items, q, { sortable: r.sortable, defaultOrder: r.defaultOrder, binding, now: ctx.now });
    });
  }

  if (has('get')) {
    table.on('GET', `${base}/*`, async (req) => {
      const ctx = await caller(req.headers.authorization);
      const uid = requireUid(uidOf(req), 'uid');
      return r.view(existing(ctx, uid, `${cap}.list`), ctx);
    });
  }

  if (has('create') && r.toRecordBody) {
    const toRecordBody = r.toRecordBody;
    const create = async (req: FastifyRequest) => {
      const ctx = await caller(req.headers.authorization);
      const raw = (req.params as { '*'?: string })['*'] ?? '';
      const parent = raw === '' ? '' : requireUid(raw, 'parent');
      if (parent === '' && !def.rootCreate) throw invalid('parent', 'is required');
      // permission on the parent first, then what the body says, then whether the parent exists
      if (parent !== '' && !ctx.access.can(`${cap}.create`, parent))
        throw new ApiError(GrpcCode.PERMISSION_DENIED, `the caller may not create ${r.plural} under ${parent}`);
      const body = objectBody(req.body ?? {});
      const mistyped = bodyTypeViolation(r.plural, body);
      if (mistyped) throw invalidFields([mistyped]);
      const violations = r.validate?.(body, ctx) ?? [];
      if (violations.length > 0) throw invalidFields(violations);
      const record = def.create(toRecordBody(body, ctx), parent, ctx, new Query({}));
      insertRecord(def, record, ctx);
      return (r.createView ?? r.view)(record, ctx);
    };
    table.on('POST', `${base}/*`, create);
    // without a parent: authenticated, then refused naming `parent` (at the root only where a root create exists)
    table.on('POST', base, create);
  }

  if (has('update') && r.toRecordBody && def.replace) {
    const { replace } = def;
    const toRecordBody = r.toRecordBody;
    table.on('PATCH', `${base}/*`, async (req) => {
      const ctx = await caller(req.headers.authorization);
      const uid = requireUid(uidOf(req), 'uid');
      const current = existing(ctx, uid, `${cap}.update`);
      const body = objectBody(req.body);
      const mistyped = bodyTypeViolation(r.plural, body);
      if (mistyped) throw invalidFields([mistyped]);
      const q = new Query(req.query as Record<string, string | string[]>);
      const merged = applyNativeMask(r.view(current, ctx), body, q.all('update_mask').join(','), r);
      const violations = r.validate?.(merged, ctx) ?? [];
      if (violations.length > 0) throw invalidFields(violations);
      const record = replace(toRecordBody(merged, ctx), current, ctx);
      replaceRecord(def, uid, record, ctx);
      return r.view(record, ctx);
    });
  }

  if (has('delete')) {
    table.on('DELETE', `${base}/*`, async (req) => {
      const ctx = await caller(req.headers.authorization);
      const uid = requireUid(uidOf(req), 'uid');
      removeRecord(def, uid, existing(ctx, uid, `${cap}.delete`), ctx);
      return {};
    });
  }
}
