import { createServer as createHttp1Server, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { constants as h2, createServer as createHttp2Server, type Http2Server, Http2ServerRequest } from 'node:http2';
import type { Socket } from 'node:net';
import { type DescMessage, type DescMethodUnary, fromJson, type JsonValue, type Message, toJson } from '@bufbuild/protobuf';
import { type Code, ConnectError, type ConnectRouter, createContextKey, createContextValues, type HandlerContext } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import type { FastifyInstance } from 'fastify';
import { BadRequestSchema, ErrorInfoSchema, PreconditionFailureSchema } from '../../gen/google/rpc/error_details_pb.js';
import { opensHttp2 } from '../../net/first-bytes.js';
import { IN_PROCESS, RESET } from '../fault-rules.js';
import { NATIVE_RESOURCES } from './native-resources.js';
import { pluralOf, SERVICES } from './native-services.js';

const DETAILS: Record<string, DescMessage> = {
  'google.rpc.ErrorInfo': ErrorInfoSchema,
  'google.rpc.BadRequest': BadRequestSchema,
  'google.rpc.PreconditionFailure': PreconditionFailureSchema,
};

const READ = { ignoreUnknownFields: true } as const;

/** A REST request of the native surface, made from a call. */
interface RestCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
}

/** The field of a Create/Update request that holds the resource, by its proto name. */
function resourceField(method: DescMethodUnary): string {
  const field = method.input.fields.find((f) => f.message?.typeName === method.output.typeName);
  if (!field) throw new Error(`${method.name}: no field of type ${method.output.typeName}`);
  return field.name;
}

/** A list request's fields as REST query parameters: proto names, nested ones dotted, repeated ones repeated. */
function queryOf(json: JsonValue): string {
  const params = new URLSearchParams();
  const walk = (value: JsonValue, key: string) => {
    if (value === null) return;
    if (Array.isArray(value)) for (const v of value) walk(v, key);
    else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, key === '' ? k : `${key}.${k}`);
    else params.append(key, String(value));
  };
  walk(json, '');
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The REST request that does what a call asks. */
function restCallOf(method: DescMethodUnary, base: string, request: Message): RestCall {
  const verb = /^(Get|List|Create|Update|Delete)/.exec(method.name)?.[1];
  const snake = toJson(method.input, request, { useProtoFieldName: true }) as Record<string, JsonValue>;
  const uid = typeof snake.uid === 'string' ? snake.uid : '';
  switch (verb) {
    case 'Get':
      return { method: 'GET', url: `${base}/${uid}` };
    case 'Delete':
      return { method: 'DELETE', url: `${base}/${uid}` };
    case 'List':
      return { method: 'GET', url: `${base}${queryOf(snake)}` };
    case 'Create': {
      const field = resourceField(method);
      const parent = typeof snake.parent === 'string' ? snake.parent : '';
      const body = toJson(method.input, request) as Record<string, JsonValue>;
      const jsonName = method.input.fields.find((f) => f.name === field)?.jsonName as string;
      return { method: 'POST', url: parent === '' ? base : `${base}/${parent}`, body: body[jsonName] ?? {} };
    }
    case 'Update': {
      const field = resourceField(method);
      const jsonName = method.input.fields.find((f) => f.name === field)?.jsonName as string;
      const { uid: target, ...body } = ((toJson(method.input, request) as Record<string, JsonValue>)[jsonName] ?? {}) as Record<string, JsonValue>;
      const mask = typeof snake.update_mask === 'string' && snake.update_mask !== '' ? `?update_mask=${encodeURIComponent(snake.update_mask)}` : '';
      return { method: 'PATCH', url: `${base}/${typeof target === 'string' ? target : ''}${mask}`, body };
    }
    default:
      throw new ConnectError(`${method.name} is not served`, 12 as Code);
  }
}

/** An AIP-193 REST error body as the gRPC status of the same error (code, text, details). */
function statusOf(status: number, text: string): ConnectError {
  let body: { code?: unknown; message?: unknown; details?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return new ConnectError(`the native surface answered HTTP ${status}`, 13 as Code);
  }
  const details = (Array.isArray(body.details) ? body.details : []).flatMap((d: { '@type'?: string }) => {
    const name = String(d['@type'] ?? '')
      .split('/')
      .pop() as string;
    const desc = DETAILS[name];
    if (!desc) return [];
    const { '@type': _type, ...value } = d;
    return [{ desc, value: fromJson(desc, value as JsonValue, READ) }];
  });
  const code = typeof body.code === 'number' && body.code > 0 && body.code <= 16 ? body.code : 13;
  return new ConnectError(String(body.message ?? ''), code as Code, undefined, details as never);
}

// the request a call came in on: a reset fault resets it as the transport would
const RAW_REQUEST = createContextKey<IncomingMessage | Http2ServerRequest | undefined>(undefined);

/** A call's own stream reset (HTTP/2: RST_STREAM), or its connection closed (HTTP/1.1). */
function resetCall(raw: IncomingMessage | Http2ServerRequest | undefined): void {
  if (raw instanceof Http2ServerRequest) raw.stream.close(h2.NGHTTP2_INTERNAL_ERROR);
  else raw?.socket.destroy();
}

/**
 * The native surface's gRPC service (gRPC, gRPC-Web and Connect): each of the 40 RPCs becomes the
 * REST request that does the same and runs through the native app itself, so both protocols share
 * one implementation over one store, with the same fault rules and request counts.
 */
export function nativeGrpcRoutes(appOf: () => FastifyInstance): (router: ConnectRouter) => void {
  return (router) => {
    for (const service of SERVICES) {
      const plural = pluralOf(service);
      const resource = NATIVE_RESOURCES.find((r) => r.plural === plural);
      if (!resource) throw new Error(`no native resource for ${service.typeName}`);
      const base = `${resource.prefix}/${resource.plural}`;
      for (const method of service.methods) {
        const unary = method as DescMethodUnary;
        router.rpc(unary, (async (request: Message, hc: HandlerContext) => {
          const call = restCallOf(unary, base, request);
          const headers: Record<string, string> = { [IN_PROCESS]: '1' };
          for (const name of ['authorization', 'x-request-id', 'traceparent', 'tracestate', 'baggage']) {
            const value = hc.requestHeader.get(name);
            if (value !== null) headers[name] = value;
          }
          if (headers.authorization && !/^bearer /i.test(headers.authorization)) headers.authorization = `Bearer ${headers.authorization}`;
          const res = await appOf().inject({
            method: call.method,
            url: call.url,
            headers: call.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
            ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
          });
          if (res.headers[RESET] !== undefined) {
            resetCall(hc.values.get(RAW_REQUEST));
            throw new ConnectError('reset by a fault rule', 1 as Code);
          }
          if (res.statusCode >= 300) throw statusOf(res.statusCode, res.body);
          return fromJson(unary.output, JSON.parse(res.body) as JsonValue, READ);
        }) as never);
      }
    }
  };
}

/**
 * One listener for REST (HTTP/1.1) and gRPC: a connection that opens with the HTTP/2 preface goes
 * to an h2c server of the connect adapter, any other to the HTTP/1.1 server (where gRPC-Web and
 * Connect calls go to the same adapter).
 */
export function restAndGrpcServer(routes: (router: ConnectRouter) => void): (rest: (req: IncomingMessage, res: ServerResponse) => void) => Server {
  const adapter = connectNodeAdapter({ routes, contextValues: (req) => createContextValues().set(RAW_REQUEST, req) });
  const h2: Http2Server = createHttp2Server(adapter);
  return (rest) => {
    const h1 = createHttp1Server((req, res) => (/^\/[a-z]+\.[\w.]+Service\//.test(req.url ?? '') ? adapter(req, res) : rest(req, res)));
    const h1Connection = h1.listeners('connection') as ((socket: Socket) => void)[];
    h1.removeAllListeners('connection');
    // every socket, whichever protocol it turned out to speak (or none yet): a closing emulator ends them all
    const sockets = new Set<Socket>();
    h1.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.once('error', () => socket.destroy());
      socket.once('data', (first: Buffer) => {
        socket.pause();
        socket.unshift(first);
        // an HTTP/2 session takes the socket's handle over, reading what was put back first (its
        // socket stays paused); HTTP/1.1 reads it as usual
        if (opensHttp2(first)) h2.emit('connection', socket);
        else {
          for (const listener of h1Connection) listener.call(h1, socket);
          socket.resume();
        }
      });
    });
    const closeAll = h1.closeAllConnections.bind(h1);
    h1.closeAllConnections = () => {
      closeAll();
      for (const socket of sockets) socket.destroy();
    };
    return h1;
  };
}
