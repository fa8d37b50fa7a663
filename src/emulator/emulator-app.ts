import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Access } from './access.js';
import { ApiTokens } from './api-tokens.js';
import { authenticate, bearerOf, sameSecret } from './authenticate.js';
import { Body } from './body.js';
import { type Ctx, insertRecord, isVisible, removeRecord, replaceRecord } from './collection.js';
import { type AnyCollection, COLLECTIONS } from './collections/index.js';
import { FaultRules } from './fault-rules.js';
import { GrpcCode, V1Error, httpStatusOf, invalid, notFound } from './grpc-status.js';
import { acceptFormBodies } from './form-body.js';
import { MethodTable } from './method-table.js';
import { buildNativeV2App } from './native/native-app.js';
import { OidcVerifier } from './oidc-verifier.js';
import { Query } from './query.js';
import { RequestStats } from './request-stats.js';
import { exchange } from './sts-exchange.js';
import type { Store } from './store.js';

export interface EmulatorOptions {
  store: Store;
  devToken: string;
  trustedIssuers: readonly string[];
  /** this emulator's own URL: the issuer of the tokens it mints and the audience its API accepts */
  publicUrl: () => string;
  now?: () => number;
  /** the chance a fault rule's `rate` is drawn with (tests give a seeded one) */
  random?: () => number;
  logger?: FastifyServerOptions['logger'];
  bodyLimit?: number;
  /** also build the native v2beta1 surface (its own app, for its own port); default true */
  v2?: boolean;
}

export interface Emulator {
  app: FastifyInstance;
  /** the native v2beta1 surface over the same store, when asked for */
  v2app: FastifyInstance | undefined;
  stats: RequestStats;
  faults: FaultRules;
}

/** The v1 backend emulator as a fastify app (not yet listening). */
export function buildEmulatorApp(opts: EmulatorOptions): Emulator {
  const now = opts.now ?? Date.now;
  const stats = new RequestStats();
  const tokens = new ApiTokens(opts.publicUrl);
  const verifier = new OidcVerifier(opts.trustedIssuers);
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Go's net/http reads up to 1 MiB of request line and headers; Node stops at 16 KiB, which a
    // list with a few hundred `uidp.ids` exceeds
    http: { maxHeaderSize: 1024 * 1024 },
    // a fault rule may hold requests forever; closing ends them
    forceCloseConnections: true,
  });
  const faults = new FaultRules(opts.random);

  acceptFormBodies(app);

  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/__emulator/')) stats.record(req.method, req.url);
  });
  // after the count: a call answered by a fault was still sent
  faults.install(app);

  app.setErrorHandler((err: unknown, _req, reply) => {
    const e = toV1Error(err);
    if (e.code === GrpcCode.INTERNAL) app.log.error({ err }, 'emulator failure');
    return reply.status(httpStatusOf(e.code)).send(e.toBody());
  });
  app.setNotFoundHandler((_req, reply) => reply.status(404).send({ code: 5, message: 'Not Found', details: [] }));

  const caller = async (authorization: string | undefined): Promise<Ctx> => {
    const who = await authenticate(authorization, { devToken: opts.devToken, store: opts.store, tokens, audience: opts.publicUrl() });
    return { store: opts.store, access: new Access(who, opts.store), now: now() };
  };

  const table = new MethodTable();
  for (const def of COLLECTIONS) addCollection(table, def, opts.store, caller);
  const sts = async (req: Parameters<typeof exchange>[0]) => exchange(req, { store: opts.store, verifier, tokens, now });
  table.on('GET', '/sts/exchange', sts).on('POST', '/sts/exchange', sts);
  table.on('GET', '/__emulator/stats', async () => stats.snapshot());
  table.on('POST', '/__emulator/stats/reset', async () => {
    stats.reset();
    return stats.snapshot();
  });
  table.register(app);
  const isDev = (authorization: string | undefined) => sameSecret(bearerOf(authorization) ?? '', opts.devToken);
  faults.routes(app, isDev);
  const v2app =
    opts.v2 === false
      ? undefined
      : buildNativeV2App({
          caller,
          faults,
          stats,
          isDev,
          sts,
          ...(opts.logger === undefined ? {} : { logger: opts.logger }),
          ...(opts.bodyLimit === undefined ? {} : { bodyLimit: opts.bodyLimit }),
        });
  return { app, v2app, stats, faults };
}

function addCollection(table: MethodTable, def: AnyCollection, store: Store, caller: (authorization: string | undefined) => Promise<Ctx>): void {
  const map = store[def.name] as Map<string, unknown>;
  const cap = def.capability;
  const existing = (key: string) => {
    const record = map.get(key);
    if (record === undefined) throw notFound(`${def.name} "${key}" not found`);
    return record;
  };

  table.on('GET', def.path, async (req) => {
    const ctx = await caller(req.headers.authorization);
    const q = new Query(req.query as Record<string, string | string[]>);
    const pinned = def.keyFilter === undefined ? undefined : q.one(def.keyFilter);
    const candidates = pinned ? [map.get(pinned)].filter((r) => r !== undefined) : [...map.values()];
    const items = candidates.filter((r) => isVisible(def, r, ctx) && def.matches(r, q, ctx));
    return def.listEnvelope ? def.listEnvelope(items, q, ctx) : { items: items.map((r) => def.renderList(r, ctx)) };
  });

  const create = async (req: { headers: { authorization?: string | undefined }; body: unknown; query: unknown; params: unknown }) => {
    const ctx = await caller(req.headers.authorization);
    const parent = def.createParent === 'path' ? ((req.params as { '*'?: string })['*'] ?? '') : '';
    // permission before existence: a caller who may not create under a uid learns nothing of it
    if (parent !== '') ctx.access.require(`${cap}.create`, parent);
    const record = def.create(Body.of(req.body ?? {}).json, parent, ctx, new Query(req.query as Record<string, string>));
    insertRecord(def, record, ctx);
    return def.renderWrite(record, ctx);
  };
  // Root groups are created with an empty parent; advisories name their parent in the body.
  if (def.createParent === 'body' || def.rootCreate) table.on('POST', def.path, create);
  if (def.createParent === 'path') table.on('POST', `${def.path}/*`, create);

  const { replace } = def;
  if (replace) {
    table.on('PUT', `${def.path}/*`, async (req) => {
      const ctx = await caller(req.headers.authorization);
      const key = (req.params as { '*': string })['*'];
      ctx.access.require(`${cap}.update`, key);
      const current = existing(key);
      const record = replace(Body.of(req.body ?? {}).json, current, ctx);
      replaceRecord(def, key, record, ctx);
      return def.renderWrite(record, ctx);
    });
  }

  table.on('DELETE', `${def.path}/*`, async (req) => {
    const ctx = await caller(req.headers.authorization);
    const key = (req.params as { '*': string })['*'];
    ctx.access.require(`${cap}.delete`, key);
    removeRecord(def, key, existing(key), ctx);
    return {};
  });
}

/** Every failure leaves as a grpc-gateway status body; fastify's own errors are mapped to their codes. */
function toV1Error(err: unknown): V1Error {
  if (err instanceof V1Error) return err;
  const e = err as { statusCode?: number; code?: string; message?: string };
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new V1Error(GrpcCode.RESOURCE_EXHAUSTED, 'request body too large');
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return invalid(`unsupported content type`);
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return invalid(e.message ?? 'bad request');
  }
  return new V1Error(GrpcCode.INTERNAL, 'internal error');
}
