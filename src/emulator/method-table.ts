import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GrpcCode, V1Error } from './grpc-status.js';

export type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

// in the order an Allow header lists them
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/**
 * Path templates with their handlers by method. Each template is registered once for every method so
 * that a known path with a wrong method answers as grpc-gateway does: 501, code 12, "Method Not Allowed",
 * with an Allow header naming the methods the path serves.
 */
export class MethodTable {
  private readonly templates = new Map<string, Map<string, Handler>>();

  on(method: (typeof METHODS)[number], template: string, handler: Handler): this {
    let byMethod = this.templates.get(template);
    if (!byMethod) {
      byMethod = new Map();
      this.templates.set(template, byMethod);
    }
    byMethod.set(method, handler);
    return this;
  }

  /** Registers every template; `authenticate` (the native surface's) runs before a wrong method is refused. */
  register(app: FastifyInstance, authenticate?: (req: FastifyRequest) => Promise<void>): void {
    for (const [url, byMethod] of this.templates) {
      const allow = METHODS.filter((m) => byMethod.has(m)).join(', ');
      app.route({
        method: [...METHODS],
        url,
        exposeHeadRoute: false,
        handler: async (req, reply) => {
          const handler = byMethod.get(req.method);
          if (!handler) {
            await authenticate?.(req);
            reply.header('allow', allow);
            throw new V1Error(GrpcCode.UNIMPLEMENTED, 'Method Not Allowed');
          }
          return handler(req, reply);
        },
      });
    }
  }
}
