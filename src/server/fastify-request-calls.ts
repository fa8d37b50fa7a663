import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController, type onRequestHookHandler } from 'fastify';
import type { AroundRequest } from '../exchange/around-request.js';
import { answerHead, RequestCall, type Way, type Work } from '../exchange/request-call.js';
import { type GrpcCodeNumber, httpStatusOf } from '../errors/grpc-codes.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the request as the lifecycle keeps it: opened by the route of a counted way, else when it is answered */
    call: RequestCall | undefined;
  }
}

// a fastify request's work ends when fastify says it is answered (`requestCompleted`)
const ANSWERED_BY_FASTIFY: Work = () => undefined;

/**
 * The lifecycle's adapter to fastify (REST v2, Connect and gRPC-Web, v1 writes, and every other
 * route: admin, health, token exchange). Every request's call is opened as it comes (`serve`; one
 * fastify answers without hooks, a URL it cannot decode, when it is answered), a route of a counted
 * way says which (`opener`), and fastify's one completion point, its log controller's
 * `requestCompleted`, ends it: fastify writes no line of its own, the lifecycle writes it.
 */
export class FastifyRequestCalls extends LogController {
  private around: AroundRequest | undefined;

  /** The lifecycle the calls run in (made after the app: its interceptors need the app's logger). */
  runIn(around: AroundRequest): void {
    this.around = around;
  }

  /** A route-level hook: the request is one of a counted way. */
  opener(way: Way): onRequestHookHandler {
    return (req, reply, done) => {
      const call = req.call as RequestCall;
      call.countAs(way);
      // a client gone before the answer was out is counted and logged all the same (fastify says
      // nothing of it): once the answer is rendered, which may come after the close
      reply.raw.once('close', () => {
        // closed before its answer was out, and not by the proxy breaking it off: the client left
        if (!reply.raw.writableFinished && call.broken === undefined) call.stop('cancelled');
        if (call.rendered) this.complete(req, reply, undefined);
      });
      done();
    };
  }

  /**
   * Every request of the app opened as it comes; the answer's headers (request id, `nosniff`, the v2
   * side) on every reply, each one the handler has not set itself (v1's own request id).
   */
  serve(app: FastifyInstance): void {
    app.decorateRequest('call', undefined);
    // callback hooks: no promise per request
    app.addHook('onRequest', (req, _reply, done) => {
      this.open(req, performance.now());
      done();
    });
    app.addHook('onSend', (req, reply, payload, done) => {
      const call = req.call ?? this.open(req, performance.now() - reply.elapsedTime);
      const head = answerHead(call);
      for (const name in head) if (!reply.hasHeader(name)) reply.header(name, head[name]);
      this.rendered(req, reply);
      done(null, payload);
    });
  }

  /** The answer is rendered (its status set): a request whose client is gone already ends now. */
  rendered(req: FastifyRequest, reply: FastifyReply): void {
    const call = req.call;
    if (!call) return;
    call.rendered = true;
    if (reply.raw.destroyed) this.complete(req, reply, undefined);
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    this.complete(request, reply, error);
  }

  private complete(request: FastifyRequest, reply: FastifyReply, error: Error | null | undefined): void {
    if (request.call?.ended) return;
    const call = request.call ?? this.open(request, performance.now() - reply.elapsedTime);
    call.status = call.grpcCode === undefined ? reply.statusCode : httpStatusOf(call.grpcCode as GrpcCodeNumber);
    if (error) call.broken = error;
    if (!this.isLogDisabled(request)) {
      call.source = {
        method: request.method,
        url: request.url,
        version: request.headers['accept-version'],
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
        statusCode: reply.statusCode,
        grpcStatus: call.grpcCode === undefined ? undefined : String(call.grpcCode),
      };
    }
    call.end();
  }

  private open(request: FastifyRequest, startedAt: number): RequestCall {
    const call = new RequestCall(undefined, request.id, startedAt);
    request.call = call;
    this.around?.run(call, ANSWERED_BY_FASTIFY);
    return call;
  }
}
