import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isPlainObject } from './body.js';
import { GrpcCode, V1Error } from './grpc-status.js';

export const FaultRuleSchema = z.strictObject({
  prefix: z.string().startsWith('/'),
  method: z.string().toUpperCase().optional(),
  rate: z.number().min(0).max(1).default(1),
  /** the rule applies to this many matching requests, then no more (a burst); unset: to every one */
  times: z.number().int().min(1).max(1_000_000).optional(),
  status: z.number().int().min(100).max(599).optional(),
  delayMs: z.number().int().min(0).max(600_000).default(0),
  reset: z.boolean().default(false),
  hang: z.boolean().default(false),
  set: z.record(z.string(), z.unknown()).optional(),
  /** what a matching write stores instead of what it asked: fields dropped (kept as they were), others stored, or a delete that removes nothing */
  write: z
    .strictObject({
      drop: z.array(z.string().min(1).max(200)).max(50).default([]),
      set: z.record(z.string(), z.unknown()).default({}),
      keep: z.boolean().default(false),
    })
    .optional(),
});
/** The header an in-process call (the gRPC surface's) carries, and the one its answer carries when a fault reset it. */
export const IN_PROCESS = 'x-emulator-in-process';
export const RESET = 'x-emulator-reset';

export const FaultRulesBody = z.strictObject({ rules: z.array(FaultRuleSchema).max(100) });
export type FaultRule = z.infer<typeof FaultRuleSchema>;

// grpc-gateway's code for an HTTP status the emulator is told to answer
const CODE_OF_STATUS: Record<number, number> = {
  400: GrpcCode.INVALID_ARGUMENT,
  401: GrpcCode.UNAUTHENTICATED,
  403: GrpcCode.PERMISSION_DENIED,
  404: GrpcCode.NOT_FOUND,
  409: GrpcCode.ABORTED,
  429: GrpcCode.RESOURCE_EXHAUSTED,
  499: GrpcCode.CANCELLED,
  501: GrpcCode.UNIMPLEMENTED,
  503: GrpcCode.UNAVAILABLE,
  504: GrpcCode.DEADLINE_EXCEEDED,
};

/**
 * Switchable faults for tests and demos, shared by the v1 and the native v2 surface: a rule matches
 * a path prefix (and a method), and with its rate (for its first `times` matches, when given) delays, answers a status, resets the connection,
 * never answers, overwrites top-level fields of each resource of a v2 answer, or changes what a
 * write stores (a field dropped or given another value, a delete that removes nothing).
 */
export class FaultRules {
  private rules: FaultRule[] = [];
  // how many requests each rule with `times` has applied to
  private used = new WeakMap<FaultRule, number>();
  // a request made in-process (the native gRPC surface runs its calls through the REST routes) has no real socket
  private readonly hung = new Set<{ destroy?(): void }>();

  constructor(private readonly random: () => number = Math.random) {}

  replace(rules: FaultRule[]): void {
    this.rules = rules;
    this.used = new WeakMap();
  }

  list(): FaultRule[] {
    return this.rules;
  }

  private pick(method: string, url: string): FaultRule[] {
    const path = url.split('?', 1)[0] as string;
    if (path.startsWith('/__emulator/')) return [];
    return this.rules.filter((r) => {
      if (!path.startsWith(r.prefix) || (r.method !== undefined && r.method !== method) || this.random() >= r.rate) return false;
      if (r.times === undefined) return true;
      const used = this.used.get(r) ?? 0;
      this.used.set(r, used + 1);
      return used < r.times;
    });
  }

  /** Installs the hooks on one app (the v1 and the v2 surface each get them). */
  install(app: FastifyInstance): void {
    app.addHook('onRequest', async (req, reply) => {
      const rules = this.pick(req.method, req.url);
      if (rules.length === 0) return;
      (req as { faults?: FaultRule[] }).faults = rules;
      const delay = Math.max(...rules.map((r) => r.delayMs));
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      if (rules.some((r) => r.reset)) {
        // a call the gRPC surface makes in-process has no connection of its own: it resets its caller's
        if (req.headers[IN_PROCESS] !== undefined) return reply.status(502).header(RESET, '1').send();
        reply.hijack();
        req.raw.socket.destroy();
        return;
      }
      if (rules.some((r) => r.hang)) {
        reply.hijack();
        const socket = req.raw.socket;
        this.hung.add(socket);
        socket.once('close', () => this.hung.delete(socket));
        return;
      }
      const status = rules.find((r) => r.status !== undefined)?.status;
      if (status !== undefined && status >= 400) {
        const code = CODE_OF_STATUS[status] ?? (status >= 500 ? GrpcCode.INTERNAL : GrpcCode.UNKNOWN);
        await reply.status(status).send(new V1Error(code as V1Error['code'], `injected fault: HTTP ${status}`).toBody());
      }
    });
    app.addHook('preHandler', async (req, reply) => {
      const writes = ((req as { faults?: FaultRule[] }).faults ?? []).flatMap((r) => (r.write ? [r.write] : []));
      if (writes.length === 0) return;
      if (req.method === 'DELETE') {
        // answered as done, and nothing removed
        if (writes.some((w) => w.keep)) await reply.send({});
        return;
      }
      if (!isPlainObject(req.body)) return;
      const body = req.body as Record<string, unknown>;
      const dropped = new Set(writes.flatMap((w) => w.drop));
      for (const field of dropped) delete body[field];
      Object.assign(body, ...writes.map((w) => w.set));
      // with a mask: a dropped field is not written either (it keeps its value), a set one is
      const query = req.query as Record<string, unknown>;
      if (typeof query.update_mask === 'string' && query.update_mask !== '') {
        const paths = query.update_mask.split(',').filter((path) => !dropped.has(path.trim()));
        for (const w of writes) for (const field of Object.keys(w.set)) if (!paths.includes(field)) paths.push(field);
        query.update_mask = paths.join(',');
      }
    });
    app.addHook('onSend', async (req, _reply, payload) => {
      const sets = ((req as { faults?: FaultRule[] }).faults ?? []).map((r) => r.set).filter((s) => s !== undefined);
      if (sets.length === 0 || typeof payload !== 'string') return payload;
      return overwrite(payload, Object.assign({}, ...sets));
    });
    app.addHook('onClose', async () => {
      for (const socket of this.hung) socket.destroy?.();
    });
  }

  /** Registers `POST`/`DELETE /__emulator/faults` (the caller has been checked to be the dev token). */
  routes(app: FastifyInstance, isDev: (authorization: string | undefined) => boolean): void {
    app.post('/__emulator/faults', async (req, reply) => {
      if (!isDev(req.headers.authorization))
        return reply.status(401).send({ code: GrpcCode.UNAUTHENTICATED, message: 'the dev token is required', details: [] });
      const parsed = FaultRulesBody.safeParse(req.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return reply.status(400).send({ code: GrpcCode.INVALID_ARGUMENT, message: `${issue?.path.join('.') || 'body'}: ${issue?.message}`, details: [] });
      }
      this.replace(parsed.data.rules);
      return { rules: this.rules };
    });
    app.delete('/__emulator/faults', async (req, reply) => {
      if (!isDev(req.headers.authorization))
        return reply.status(401).send({ code: GrpcCode.UNAUTHENTICATED, message: 'the dev token is required', details: [] });
      this.replace([]);
      return { rules: [] };
    });
    app.get('/__emulator/faults', async () => ({ rules: this.rules }));
  }
}

/** Overwrites fields of the resource of a Get answer, or of every item of a List answer. */
function overwrite(payload: string, set: Record<string, unknown>): string {
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return payload;
  }
  if (!isPlainObject(body) || 'code' in body) return payload;
  const list = Object.entries(body).find(([k, v]) => Array.isArray(v) && k !== 'details');
  if (list && ('totalCount' in body || list[0] === 'items')) {
    body[list[0]] = (list[1] as unknown[]).map((item) => (isPlainObject(item) ? { ...item, ...set } : item));
  } else {
    Object.assign(body, set);
  }
  return JSON.stringify(body);
}
