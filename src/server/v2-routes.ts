import { callerAuthorization } from '../auth/caller-identity.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { apiError, invalidFields } from '../errors/error-registry.js';
import { renderError } from '../errors/render-error.js';
import type { Exchange } from '../exchange/exchange.js';
import type { RequestCall } from '../exchange/request-call.js';
import type { Door, ExchangePipeline, Served } from '../exchange/exchange-pipeline.js';
import { isObject } from '../json/json-path.js';
import { JsonText, jsonTextOf } from '../json/json-text.js';
import { receivedText } from '../json/received-text.js';
import { pageTokenParam } from '../list/page-params.js';
import type { RawQuery } from '../list/query-params.js';
import { wrongMethod } from '../mapping/path-methods.js';
import type { RouteTable } from '../mapping/route-table.js';
import type { Operation } from '../rollout/rollout-config.js';
import { answerBody } from '../shadow/answer-body.js';
import type { NativeAnswer, NativeV2Client } from '../upstream/native-v2-client.js';
import { traceContextOf } from '../upstream/trace-context.js';
import type { FastifyRequestCalls } from './fastify-request-calls.js';
import type { Lifecycle } from './lifecycle.js';
import { noRoute } from './no-route.js';

/** A REST request as it goes to the native backend: as the client sent it. */
interface RestWire {
  method: string;
  url: string;
  body: unknown;
}

const OPERATION_OF: Record<string, 'get' | 'create' | 'update' | 'delete'> = { GET: 'get', POST: 'create', PATCH: 'update', DELETE: 'delete' };

/** The list's page token, the one the list reads too (two different ones are refused before the rollout decides on either). */
function pageTokenOf(query: RawQuery): string | undefined {
  const token = pageTokenParam(query);
  if (typeof token === 'object') throw invalidFields([token]);
  return token === '' ? undefined : token;
}

/** The REST door's native side: the request forwarded as received, the answer back byte for byte. */
function restDoor(native: NativeV2Client | undefined): Door<RestWire, NativeAnswer> {
  return {
    protocol: 'rest',
    native: (ex, origin) => {
      const { method, url, body } = ex.wire;
      const withBody = body !== undefined && method !== 'GET' && method !== 'DELETE';
      return (native as NativeV2Client).forward({
        ...origin,
        method,
        url,
        contentType: withBody ? 'application/json' : undefined,
        body: withBody ? (receivedText(body) ?? JSON.stringify(body)) : undefined,
      });
    },
    created: (_ex, answer) => {
      if (answer.status < 200 || answer.status > 299) return undefined;
      const body = answerBody(answer.body.toString('utf8'));
      return isObject(body) ? body : undefined;
    },
    comparable: (ex, answer) => comparableRest(ex, answer),
  };
}

/** An answer as the shadow compares it: what the client read, as JSON. */
function comparableRest(ex: Exchange<RestWire>, answer: Served<NativeAnswer> | ApiError) {
  if (answer instanceof ApiError) {
    const rendered = renderError(answer, ex.named.path);
    return { status: rendered.status, body: rendered.body };
  }
  if (answer.side === 'native') return { status: answer.value.status, body: answerBody(answer.value.body.toString('utf8')) };
  const { value } = answer;
  return { status: 200, body: value instanceof JsonText ? answerBody(value.text) : value };
}

/**
 * The REST front door of the v2 surface: one catch-all per v2 prefix. It reads a request into an
 * Exchange (route, operation, inputs, caller), hands it to the pipeline, and renders the result:
 * translated JSON, the native answer as it came, or the registry's error in AIP-193 form.
 */
export function registerV2Routes(
  app: FastifyInstance,
  table: RouteTable,
  pipeline: ExchangePipeline,
  native: NativeV2Client | undefined,
  lifecycle: Lifecycle,
  calls: FastifyRequestCalls,
): void {
  const door = restDoor(native);

  /** The request as an exchange, or the registry's error the door answers on its own (refused). */
  const exchangeOf = (req: FastifyRequest, reply: FastifyReply, call: RequestCall): Exchange<RestWire> => {
    const route = table.match(req.url);
    if (!route) throw noRoute(req);
    const { resource } = route;
    if (route.kind === 'verb') {
      if (!resource.mapping.v2.verbs.includes(route.verb)) throw noRoute(req);
      throw apiError('VERB_NOT_SERVED', { resource: resource.mapping.resource, verb: route.verb });
    }
    const uid = route.kind === 'item' ? route.uid : '';
    const path = req.url.split('?', 1)[0] as string;
    let operation: Operation | undefined;
    if (route.kind === 'collection') {
      // a create without a parent is a create all the same: refused naming the parent where there is no root
      operation = req.method === 'GET' ? 'list' : req.method === 'POST' ? 'create' : undefined;
      if (operation === undefined) throw wrongMethod(resource.mapping.v2, OPERATION_OF[req.method], { method: req.method, path }, 'collection');
    } else if (uid === '') {
      if (req.method !== 'POST' || !resource.mapping.rootParent) throw noRoute(req);
      operation = 'create';
    } else {
      operation = OPERATION_OF[req.method];
      if (operation === undefined) throw wrongMethod(resource.mapping.v2, undefined, { method: req.method, path }, 'item');
    }
    const query = req.query as RawQuery;
    return {
      protocol: 'rest',
      call,
      resource,
      operation,
      input: { uid, uidField: operation === 'create' ? 'parent' : 'uid', body: req.body, query },
      headers: req.headers,
      origin: {
        authorization: callerAuthorization(req.headers.authorization),
        requestId: req.id,
        signal: lifecycle.requestSignal(reply.raw),
        trace: traceContextOf(req.headers),
      },
      idempotencyKey: req.headers['idempotency-key'],
      pageToken: operation === 'list' ? pageTokenOf(query) : undefined,
      named: { method: req.method, path },
      restUrl: () => req.url,
      wire: { method: req.method, url: req.url, body: req.body },
    };
  };

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const ex = exchangeOf(req, reply, req.call as RequestCall);
    const path = ex.named.path;
    await pipeline.run(ex, door, (result) => {
      if (result instanceof ApiError) {
        const rendered = renderError(result, path);
        if (rendered.allow) reply.header('allow', rendered.allow);
        reply.status(rendered.status).type('application/json').send(rendered.body);
        return { status: rendered.status };
      }
      if (result.side === 'native') {
        reply.status(result.value.status);
        if (result.value.contentType) reply.header('content-type', result.value.contentType);
        reply.send(result.value.body);
        return { status: result.value.status };
      }
      reply.type('application/json; charset=utf-8').send(jsonTextOf(result.value));
      return { status: 200 };
    });
    return reply;
  };

  // an answer made before there was an exchange (an unknown path or method, a body fastify could
  // not parse) is counted as refused: with its resource and operation when the path names them
  const errorHandler = (err: FastifyError, req: FastifyRequest) => {
    const call = req.call;
    if (call && !call.exchanged) {
      call.resource = table.match(req.url)?.resource.mapping.resource ?? 'unknown';
      call.operation = OPERATION_OF[req.method] ?? 'unknown';
      if (req.method === 'GET') call.readUrl = () => req.url;
    }
    throw err;
  };
  const onRequest = calls.opener('rest');
  for (const prefix of table.prefixes) {
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
      url: `${prefix}/*`,
      exposeHeadRoute: false,
      onRequest,
      handler,
      errorHandler,
    });
  }
}
