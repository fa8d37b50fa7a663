import { apiError } from '../errors/error-registry.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../errors/api-error.js';
import { listResource } from '../operations/list-resource.js';
import type { RawQuery } from '../list/query-params.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import type { RouteTable } from '../mapping/route-table.js';
import { createResource } from '../operations/create-resource.js';
import { idempotentCreate } from '../operations/idempotent-create.js';
import { deleteResource } from '../operations/delete-resource.js';
import { getResource } from '../operations/get-resource.js';
import { type AppServices, type RequestOrigin, operationContext } from '../operations/operation-context.js';
import { updateResource } from '../operations/update-resource.js';
import { renderError } from '../errors/render-error.js';
import type { Operation, RolloutRoute } from '../rollout/rollout-config.js';
import type { Decision, RolloutController } from '../rollout/rollout-controller.js';
import { answerBody } from '../shadow/answer-body.js';
import { JsonText, jsonTextOf } from '../json/json-text.js';
import type { ComparedAnswer } from '../shadow/compare-answers.js';
import type { RecordFile } from '../shadow/record-file.js';
import { QuietGate } from '../shadow/quiet-gate.js';
import type { ShadowRunner } from '../shadow/shadow-runner.js';
import { toApiError } from './to-api-error.js';
import type { NativeV2Client } from '../upstream/native-v2-client.js';
import { traceContextOf } from '../upstream/trace-context.js';
import type { V1Client } from '../upstream/v1-client.js';
import type { Lifecycle } from './lifecycle.js';
import { noRoute } from './no-route.js';
import { requireUid } from './require-uid.js';
import type { LifeSignal } from '../upstream/request-life.js';

/** What served a v2 request, for the metrics and the `x-v2proxy-backend` header. */
export interface V2Served {
  resource: string;
  operation: string;
  backend: 'translate' | 'native';
}

export const BACKEND_HEADER = 'x-v2proxy-backend';

const served = new WeakMap<FastifyRequest, V2Served>();

export function servedBy(req: FastifyRequest): V2Served | undefined {
  return served.get(req);
}

/** Where v2 requests may go besides translation: the native backend and the rollout deciding it. */
export interface NativeRouting {
  rollout: RolloutController;
  native: NativeV2Client | undefined;
  /** whether a page token was sealed by this proxy (the translation path), not by the native backend */
  issuedHere: (token: string) => boolean;
  /** shadow reads to the other side (with a native backend) */
  shadow?: ShadowRunner | undefined;
  /** RECORD_FILE */
  record?: RecordFile | undefined;
  random?: () => number;
  /** each request's life (the client leaving, the drain) */
  lifecycle: Lifecycle;
}

interface PendingShadow {
  decision: Decision;
  config: RolloutRoute;
  noise: boolean;
  payload?: unknown;
}

const shadows = new WeakMap<FastifyRequest, PendingShadow>();

/** how long shadow work waits for a moment without client requests before it runs anyway */
const QUIET_WAIT_MS = 5;

/** An answer body as JSON (what the client got), or the text when it is not JSON. */
function bodyOf(payload: unknown): unknown {
  const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : typeof payload === 'string' ? payload : undefined;
  return text === undefined ? (payload ?? null) : answerBody(text);
}

const OPERATION_OF: Record<string, 'get' | 'create' | 'update' | 'delete'> = { GET: 'get', POST: 'create', PATCH: 'update', DELETE: 'delete' };

/** The operation a request asks for, when it is one of the five (custom verbs and odd methods are not). */
function operationOf(kind: 'collection' | 'item', uid: string, method: string): Operation | undefined {
  if (kind === 'collection') return method === 'GET' ? 'list' : method === 'POST' ? 'create' : undefined;
  if (uid === '') return method === 'POST' ? 'create' : undefined;
  return OPERATION_OF[method];
}

function pageTokenOf(query: unknown): string | undefined {
  const q = query as Record<string, unknown>;
  const raw = q.page_token ?? q.pageToken;
  const token = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/** Who asks, with the request's life and trace headers: what its upstream calls carry. */
function originOf(req: FastifyRequest, signal: LifeSignal): RequestOrigin {
  return { authorization: req.headers.authorization, requestId: req.id, signal, trace: traceContextOf(req.headers) };
}

async function serveNative(
  req: FastifyRequest,
  reply: FastifyReply,
  origin: RequestOrigin,
  native: NativeV2Client,
  routing: NativeRouting,
  route: Decision['route'],
) {
  let answer: Awaited<ReturnType<NativeV2Client['forward']>>;
  try {
    answer = await native.forward({
      ...origin,
      method: req.method,
      url: req.url,
      // the body was parsed as JSON here; it goes on as JSON
      contentType: 'application/json',
      body: req.body === undefined || req.method === 'GET' || req.method === 'DELETE' ? undefined : JSON.stringify(req.body),
    });
  } catch (err) {
    routing.rollout.recordNative(route, true);
    throw err;
  }
  routing.rollout.recordNative(route, answer.status >= 500);
  reply.status(answer.status);
  if (answer.contentType) reply.header('content-type', answer.contentType);
  return reply.send(answer.body);
}

function wrongMethod(req: FastifyRequest, resource: CompiledResource): ApiError {
  const op = OPERATION_OF[req.method];
  const reason = op ? resource.mapping.v2.unsupported[op] : undefined;
  return reason ? apiError('METHOD_UNSUPPORTED', { reason }) : apiError('METHOD_NOT_ALLOWED', { method: req.method, path: req.url.split('?', 1)[0] as string });
}

function allows(resource: CompiledResource, op: CompiledResource['mapping']['v2']['operations'][number]): boolean {
  return resource.mapping.v2.operations.includes(op);
}

/** The whole v2 surface: one catch-all per v2 prefix, dispatched through the compiled route table. */
export function registerV2Routes(app: FastifyInstance, table: RouteTable, v1: V1Client, services: AppServices, routing: NativeRouting): void {
  const random = routing.random ?? Math.random;
  const gate = new QuietGate();
  const inFlight = new WeakSet<FastifyRequest>();
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    gate.enter();
    inFlight.add(req);
    reply.header(BACKEND_HEADER, 'translate');
    const route = table.match(req.url);
    if (!route) throw noRoute(req);
    const origin = originOf(req, routing.lifecycle.requestSignal(reply.raw));
    const name = route.resource.mapping.resource;
    const operation = route.kind === 'verb' ? undefined : operationOf(route.kind, route.kind === 'collection' ? '' : route.uid, req.method);
    if (operation !== undefined) {
      const token = operation === 'list' ? pageTokenOf(req.query) : undefined;
      const decision = routing.rollout.decide(name, operation, req.headers, token === undefined ? undefined : () => routing.issuedHere(token));
      served.set(req, { resource: name, operation, backend: decision.backend });
      reply.header(BACKEND_HEADER, decision.backend);
      planShadow(req, name, decision, operation, token !== undefined);
      if (decision.backend === 'native' && routing.native) return serveNative(req, reply, origin, routing.native, routing, decision.route);
    }
    const answer = await translated(req, route, origin);
    if (!(answer instanceof JsonText)) return answer;
    reply.type('application/json; charset=utf-8');
    return answer.text;
  };

  /** Whether this request is also read from the other side once answered (a share of a route's reads). */
  const planShadow = (req: FastifyRequest, name: string, decision: Decision, operation: Operation, continued: boolean): void => {
    const config = decision.route?.route;
    const runner = routing.shadow;
    if (!config || config.shadow <= 0 || !runner || !routing.native || decision.why === 'kill-switch') return;
    // writes are never sent twice; a continued page cannot be (each side reads only its own tokens)
    if ((operation !== 'list' && operation !== 'get') || continued) runner.skip(name, operation);
    else if (random() * 100 < config.shadow) shadows.set(req, { decision, config, noise: random() * 100 < config.noise });
  };

  /** The translation path: the v2 operations over v1. */
  const translated = async (req: FastifyRequest, route: NonNullable<ReturnType<RouteTable['match']>>, origin: RequestOrigin) => {
    const { resource } = route;
    const ctx = operationContext(services, resource, v1, origin);
    const create = (parent: string) =>
      idempotentCreate(ctx, req.headers['idempotency-key'], { url: req.url, body: req.body }, () => createResource(ctx, parent, req.body));
    if (route.kind === 'verb') {
      if (!resource.mapping.v2.verbs.includes(route.verb)) throw noRoute(req);
      throw apiError('VERB_NOT_SERVED', { resource: resource.mapping.resource, verb: route.verb });
    }
    if (route.kind === 'collection') {
      if (req.method === 'GET' && allows(resource, 'list')) return listResource(ctx, req.query as RawQuery);
      if (req.method === 'POST' && allows(resource, 'create') && resource.mapping.rootParent) return create('');
      throw wrongMethod(req, resource);
    }
    if (route.uid === '') {
      if (req.method === 'POST' && allows(resource, 'create') && resource.mapping.rootParent) return create('');
      throw noRoute(req);
    }
    switch (req.method) {
      case 'GET':
        if (allows(resource, 'get')) return getResource(ctx, requireUid(route.uid, 'uid'));
        break;
      case 'POST':
        if (allows(resource, 'create')) return create(requireUid(route.uid, 'parent'));
        break;
      case 'PATCH':
        if (allows(resource, 'update')) return updateResource(ctx, requireUid(route.uid, 'uid'), req.body, req.query as RawQuery);
        break;
      case 'DELETE':
        if (allows(resource, 'delete')) return deleteResource(ctx, requireUid(route.uid, 'uid'));
        break;
      default:
        break;
    }
    throw wrongMethod(req, resource);
  };

  /** One read of a request on one side, as the client would have seen it (shadow and noise reads). */
  const readFrom = async (req: FastifyRequest, side: 'translate' | 'native'): Promise<ComparedAnswer> => {
    // after the answer: only the drain stops a shadow read
    const origin = originOf(req, routing.lifecycle.shutdownSignal);
    if (side === 'native') {
      const native = routing.native as NativeV2Client;
      const answer = await native.forward({ ...origin, method: 'GET', url: req.url, contentType: undefined, body: undefined });
      await gate.wait(QUIET_WAIT_MS);
      return { status: answer.status, body: bodyOf(answer.body) };
    }
    await gate.wait(QUIET_WAIT_MS);
    const route = table.match(req.url);
    try {
      if (!route) throw noRoute(req);
      // what fastify would have sent: the JSON text of the result
      return { status: 200, body: JSON.parse(jsonTextOf(await translated(req, route, origin))) };
    } catch (err) {
      const rendered = renderError(toApiError(err), req.url);
      return { status: rendered.status, body: rendered.body };
    }
  };

  // a request the client gave up on never reaches onResponse
  app.addHook('onRequestAbort', (req, done) => {
    if (inFlight.delete(req)) gate.leave();
    done();
  });
  const isV2 = (url: string) => table.prefixes.some((p) => url.startsWith(`${p}/`));
  app.addHook('onSend', (req, reply, payload, done) => {
    // answers made before the v2 handler ran (a body fastify could not parse) were translated too
    if (!reply.hasHeader(BACKEND_HEADER) && isV2(req.url)) reply.header(BACKEND_HEADER, 'translate');
    const pending = shadows.get(req);
    if (pending) pending.payload = payload;
    done(null, payload);
  });
  const afterResponse = (req: FastifyRequest, reply: FastifyReply): void => {
    if (inFlight.delete(req)) gate.leave();
    const s = served.get(req);
    if (s && routing.record && (s.operation === 'list' || s.operation === 'get')) {
      routing.record.record({ time: new Date(services.now()).toISOString(), method: req.method, url: req.url, status: reply.statusCode, requestId: req.id });
    }
    const pending = shadows.get(req);
    if (!pending || !s || !routing.shadow) return;
    shadows.delete(req);
    const { decision, config } = pending;
    routing.shadow.submit({
      resource: s.resource,
      operation: s.operation,
      served: s.backend,
      primary: () => ({ status: reply.statusCode, body: bodyOf(pending.payload) }),
      requestId: req.id,
      url: req.url,
      ignore: config.ignore,
      thresholds: { relative: config.relativeThreshold / 100, absolute: config.absoluteThreshold / 100 },
      noise: pending.noise,
      call: (side) => readFrom(req, side),
      compared: (reported) => routing.rollout.recordDiff(decision.route, reported),
    });
  };
  app.addHook('onResponse', (req, reply, done) => {
    afterResponse(req, reply);
    done();
  });

  for (const prefix of table.prefixes) {
    app.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'], url: `${prefix}/*`, exposeHeadRoute: false, handler });
  }
}
