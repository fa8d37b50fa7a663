import { ATTR_HTTP_ROUTE, ATTR_RPC_METHOD, ATTR_URL_PATH } from '@opentelemetry/semantic-conventions';
import { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/error-registry.js';
import { abortReason } from '../upstream/abort-reason.js';
import { stopOf } from '../errors/request-outcome.js';
import { toApiError } from '../errors/to-api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import type { Json } from '../json/json-path.js';
import { type AppServices, operationContext, type RequestOrigin } from '../operations/operation-context.js';
import type { WriteVerifier } from '../shadow/write-verifier.js';
import type { NativeV2Client } from '../upstream/native-v2-client.js';
import type { JsonText } from '../json/json-text.js';
import { VerifiedWrites } from './verified-writes.js';
import { type KeyedCreateDeps, keyedCreate } from './keyed-create.js';
import { findV1 } from '../operations/v1-records.js';
import type { RolloutTraffic } from '../rollout/rollout-traffic.js';
import type { ComparedAnswer } from '../shadow/compare-answers.js';
import { QuietGate } from '../shadow/quiet-gate.js';
import type { ShadowRunner } from '../shadow/shadow-runner.js';
import { ATTR_RPC_SERVICE, ATTR_RPC_SYSTEM, type TracedRequest } from '../telemetry/traced-request.js';
import { traceIdOf, type Tracing } from '../telemetry/tracing.js';
import type { LifeSignal } from '../upstream/request-life.js';
import type { V1Client } from '../upstream/v1-client.js';
import type { Door, Rendered, Served } from './door.js';
import { type Exchange, type Side, sideOf } from './exchange.js';
import { translateExchange } from './translate-exchange.js';

export type { Door, Rendered, Served } from './door.js';

export interface PipelineDeps {
  v1: V1Client;
  services: AppServices;
  rollout: RolloutTraffic;
  /** whether a native backend is configured */
  native: boolean;
  /** whether this proxy sealed a page token (the translation side issued it) */
  issuedHere: (token: string) => boolean;
  shadow?: ShadowRunner | undefined;
  /** verifies a share of a route's writes (with a native backend: its reads go through its REST surface) */
  verifier?: WriteVerifier | undefined;
  nativeReads?: NativeV2Client | undefined;
  /** aborted when the drain's time is up: the only thing that stops shadow reads */
  shutdownSignal: LifeSignal;
  /** with an OTLP endpoint: a server span per exchange, a client span per upstream attempt */
  tracing?: Tracing | undefined;
  random?: () => number;
  /** the moments without client requests that shadow work waits for (shared with the write verifier) */
  gate?: QuietGate | undefined;
}

/**
 * The route an exchange took, as the OpenAPI document's path template names it (`/iam/v2beta1/groups/{uid}`,
 * a create under a parent too): its server span's `http.route`.
 */
function routeOf(ex: Exchange): string {
  const base = `${ex.resource.prefix}/${ex.resource.segment}`;
  if (ex.operation === 'list' || (ex.operation === 'create' && ex.input.uid === '')) return base;
  return `${base}/{uid}`;
}

/** A traced exchange's server span: named for its route (REST) or RPC (gRPC), its parent the client's traceparent. */
function serverSpan(tracing: Tracing, ex: Exchange) {
  const route = routeOf(ex);
  const startTime = performance.timeOrigin + ex.call.startedAt;
  if (ex.protocol === 'rest') return tracing.httpRequest(ex.named.method, route, ex.origin.trace, { [ATTR_URL_PATH]: ex.named.path }, startTime);
  const service = ex.named.path.slice(1);
  return tracing.request({
    name: `${service}/${ex.named.method}`,
    startTime,
    attributes: { [ATTR_RPC_SYSTEM]: 'grpc', [ATTR_RPC_SERVICE]: service, [ATTR_RPC_METHOD]: ex.named.method, [ATTR_HTTP_ROUTE]: route },
    trace: ex.origin.trace,
  });
}

/**
 * The one path of every v2 request, REST or gRPC: decide the side (rollout), serve it (translation
 * onto v1, or the native backend through the door), and once the door has answered, shadow it.
 * The doors only parse their protocol into an Exchange and render what comes back; errors stay the
 * registry's until a door renders them. What every request needs besides (its count, record line,
 * analysis, span end and log line) is written around it, for every way in (`around-request.ts`).
 */
export class ExchangePipeline {
  private readonly gate: QuietGate;
  private readonly random: () => number;
  private readonly writes: VerifiedWrites;

  private readonly keyed: KeyedCreateDeps;

  constructor(private readonly deps: PipelineDeps) {
    this.random = deps.random ?? Math.random;
    this.gate = deps.gate ?? new QuietGate();
    this.writes = new VerifiedWrites({ ...deps, random: this.random });
    this.keyed = { store: deps.services.idempotency, visible: (ex, side, uid) => this.visible(ex, side, uid), warn: deps.services.warn };
  }

  /**
   * The pipeline's part of one request, whichever door it came by: it is traced (with tracing on),
   * served (`serve`), its result (or the registry's error) rendered by the door (`render`, which
   * says the status it answered), and then, whatever happened, its call told how it went (what is
   * written around every request reads it: count, analysis, record, span, log line) and its shadow
   * read submitted when one was planned. Shadow work waits while exchanges run (the quiet gate),
   * left here on every path out.
   */
  async run<W, N>(ex: Exchange<W>, door: Door<W, N>, render: (result: Served<N> | ApiError) => Rendered): Promise<void> {
    this.gate.enter();
    const { call } = ex;
    call.exchanged = true;
    call.resource = ex.resource.mapping.resource;
    call.operation = ex.operation;
    if (ex.operation === 'get' || ex.operation === 'list') call.readUrl = once(ex.restUrl);
    call.clientTraceId = traceIdOf(ex.origin.trace);
    const traced = this.deps.tracing ? serverSpan(this.deps.tracing, ex) : undefined;
    if (traced) {
      ex.origin.spans = traced;
      call.traced = traced;
    }
    let result: Served<N> | ApiError | undefined;
    let rendered: Rendered = { status: 500, grpcCode: ex.protocol === 'grpc' ? GrpcCode.INTERNAL : undefined };
    try {
      result = await this.answer(ex, door);
      // a request stopped (its client gone, its deadline passed, the drain) is answered so at once
      const stop = result instanceof ApiError ? stopOf(result.entry) : undefined;
      if (stop) call.stop(stop);
      rendered = render(result);
    } finally {
      this.gate.leave();
      call.status = rendered.status;
      call.grpcCode = rendered.grpcCode;
      const answered = result;
      // a stopped request's answer is no side's: nothing to compare it with
      if (ex.shadow && !call.stopped) this.submitShadow(ex, door, () => answered ?? toApiError(new Error('the answer could not be rendered')));
      if (this.writes.planned(ex.operation)) this.writes.answered(ex, door, answered, rendered.status);
    }
  }

  /** Decides the side and serves the exchange there. */
  async serve<W, N>(ex: Exchange<W>, door: Door<W, N>): Promise<Served<N>> {
    // authentication first, as the service does, and before any side is chosen: an anonymous
    // request learns nothing of its input's faults and is evidence about neither side
    if (!ex.origin.authorization) throw apiError('NO_CREDENTIALS');
    const { rollout } = this.deps;
    const token = ex.pageToken;
    const decision = rollout.decide({
      resource: ex.resource.mapping.resource,
      operation: ex.operation,
      headers: ex.headers,
      issuedHere: token === undefined ? undefined : () => this.deps.issuedHere(token),
    });
    // known before the door renders: its answer says the side
    const { call } = ex;
    call.decision = decision;
    call.side = decision.backend === 'native' && this.deps.native ? 'native' : 'translate';
    this.planShadow(ex, token !== undefined);
    if (this.writes.planned(ex.operation)) await this.writes.plan(ex);
    // a keyed create is claimed whichever side serves it: one create for one key, on either side
    if (ex.operation === 'create' && ex.idempotencyKey !== undefined && ex.origin.authorization !== undefined) {
      const made = await keyedCreate(ex, this.keyed, async () => {
        // once claimed, the create runs to its end whatever its client does (only the drain stops
        // it): a create cut off between its calls would free a key whose resource was made
        const claimed: Exchange<W> = { ...ex, origin: { ...ex.origin, signal: this.deps.shutdownSignal } };
        const served = await this.serveOn(claimed, door);
        return { served, created: served.side === 'native' ? door.created(ex, served.value) : (served.value as Json) };
      });
      if (!('replayed' in made)) return made;
      // answered from the record: no side served it now, so it is nobody's evidence and no write to verify
      call.side = made.side;
      call.decision = { ...decision, evidence: false };
      ex.verify = undefined;
      return { side: 'translate', value: made.replayed };
    }
    return this.serveOn(ex, door);
  }

  /**
   * Serves the exchange on the side decided. How it went is the request's outcome, classified once
   * it is answered (`request-outcome.ts`): the guard and the analysis read it there.
   */
  private async serveOn<W, N>(ex: Exchange<W>, door: Door<W, N>): Promise<Served<N>> {
    ex.call.reached = true;
    if (sideOf(ex) === 'translate') return { side: 'translate', value: await this.translate(ex, ex.origin) };
    return { side: 'native', value: await door.native(ex, ex.origin) };
  }

  /** Whether the caller of `ex` sees the resource `uid` on `side` (a keyed create's retry with another token). */
  private async visible(ex: Exchange, side: Side, uid: string): Promise<boolean> {
    if (side === 'translate') {
      const ctx = operationContext(this.deps.services, ex.resource, this.deps.v1, ex.origin);
      return (await findV1(ctx, uid)) !== undefined;
    }
    const native = this.deps.nativeReads;
    if (!native) return false;
    const answer = await native.forward({
      ...ex.origin,
      method: 'GET',
      url: `${ex.resource.prefix}/${ex.resource.segment}/${encodeURIComponent(uid)}`,
      contentType: undefined,
      body: undefined,
    });
    return answer.status === 200;
  }

  /**
   * `serve`, with whatever it throws as the registry's error, which the door renders; an error that
   * is a bug (INTERNAL) is also the request's failure, logged with it.
   */
  private answer<W, N>(ex: Exchange<W>, door: Door<W, N>): Promise<Served<N> | ApiError> {
    const { signal } = ex.origin;
    if (signal?.aborted) return Promise.resolve(abortReason(signal));
    const served = this.serve(ex, door).then(undefined, (err: unknown) => {
      const error = toApiError(err);
      if (error.code === GrpcCode.INTERNAL) ex.call.failure ??= err;
      return error;
    });
    if (!signal) return served;
    // the request's life ends first (its client gone, its deadline, the drain's time): answered
    // so then, whatever its work still waits on (a write already sent finishes, and is recorded)
    return new Promise((resolve) => {
      const stopped = () => resolve(abortReason(signal));
      signal.addEventListener('abort', stopped, { once: true });
      void served.then((result) => {
        signal.removeEventListener('abort', stopped);
        resolve(result);
      });
    });
  }

  /** The translation side of an exchange, for a caller (the client's request, or a shadow read). */
  translate(ex: Exchange, origin: RequestOrigin): Promise<Json | JsonText> {
    return translateExchange(operationContext(this.deps.services, ex.resource, this.deps.v1, origin), ex);
  }

  /** The planned shadow read of an answered exchange. `answer`: what the client got, read only when compared. */
  private submitShadow<W, N>(ex: Exchange<W>, door: Door<W, N>, answer: () => Served<N> | ApiError): void {
    const { shadow } = this.deps;
    const planned = ex.shadow;
    if (!planned || !shadow) return;
    const decision = ex.call.decision;
    const { config } = planned;
    shadow.submit({
      resource: ex.resource.mapping.resource,
      operation: ex.operation,
      served: sideOf(ex),
      primary: () => door.comparable(ex, answer()),
      requestId: ex.origin.requestId,
      url: ex.call.readUrl?.() ?? ex.restUrl(),
      ignore: config.ignore,
      thresholds: { relative: config.relativeThreshold / 100, absolute: config.absoluteThreshold / 100 },
      noise: planned.noise,
      call: (side) => this.readFrom(ex, door, side),
      compared: (outcome) => this.deps.rollout.compared(decision, outcome),
    });
  }

  /** Whether this exchange is also read from the other side once answered (a share of a route's reads). */
  private planShadow(ex: Exchange, continued: boolean): void {
    const decision = ex.call.decision;
    const config = decision?.route?.route;
    const share = decision?.route?.share.shadow ?? 0;
    const runner = this.deps.shadow;
    // an operator's override is nobody's evidence: not compared either
    if (!config || share <= 0 || !runner || !this.deps.native || decision?.why === 'kill-switch' || decision?.evidence === false) return;
    // writes are never sent twice; a continued page cannot be (each side reads only its own tokens)
    if ((ex.operation !== 'list' && ex.operation !== 'get') || continued) runner.skip(ex.resource.mapping.resource, ex.operation);
    else if (this.random() * 100 < share) ex.shadow = { config, noise: this.random() * 100 < config.noise };
  }

  /** One read of an exchange on one side, as its client would have seen it (shadow and noise reads). */
  private async readFrom<W, N>(ex: Exchange<W>, door: Door<W, N>, side: Side): Promise<ComparedAnswer> {
    // a trace of its own, linked to the request's: it runs after the answer
    // (only a traced request's: a shadow is traced as what it shadows is)
    const traced =
      ex.call.traced &&
      this.deps.tracing?.linked(ex.call.traced, `shadow read ${side}`, { 'v2proxy.side': side, 'v2proxy.resource': ex.resource.mapping.resource });
    try {
      return await this.readOn(ex, door, side, traced);
    } finally {
      traced?.end({ status: 200 });
    }
  }

  private async readOn<W, N>(ex: Exchange<W>, door: Door<W, N>, side: Side, traced: TracedRequest | undefined): Promise<ComparedAnswer> {
    // after the answer: only the drain stops a shadow read
    const origin: RequestOrigin = { ...ex.origin, signal: this.deps.shutdownSignal, spans: traced };
    let answer: Served<N> | ApiError;
    if (side === 'native') {
      // no answer from the native backend is a shadow that failed, not a difference
      answer = { side, value: await door.native(ex, origin) };
      await this.gate.wait();
    } else {
      // the translation's work waits for a quiet moment; comparing it needs no second wait
      await this.gate.wait();
      try {
        answer = { side, value: await this.translate(ex, origin) };
      } catch (err) {
        // a translation error is an answer the client would have got
        answer = toApiError(err);
      }
    }
    return door.comparable(ex, answer);
  }
}

/** A function's value, made on the first call and kept (a gRPC read's REST form: built once, for the record and the shadow). */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
