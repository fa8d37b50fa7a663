import type { ApiError } from '../errors/api-error.js';
import { toApiError } from '../errors/to-api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import type { Json } from '../json/json-path.js';
import type { JsonText } from '../json/json-text.js';
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { type AppServices, operationContext, type RequestOrigin } from '../operations/operation-context.js';
import type { RolloutTraffic } from '../rollout/rollout-traffic.js';
import type { ComparedAnswer } from '../shadow/compare-answers.js';
import { QuietGate } from '../shadow/quiet-gate.js';
import type { RecordFile } from '../shadow/record-file.js';
import type { ShadowRunner } from '../shadow/shadow-runner.js';
import type { LifeSignal } from '../upstream/request-life.js';
import type { V1Client } from '../upstream/v1-client.js';
import type { Exchange, Protocol, Side } from './exchange.js';
import { translateExchange } from './translate-exchange.js';

/** What served an exchange: the translation's result, or the native backend's answer in the door's own form. */
export type Served<N> = { side: 'translate'; value: Json | JsonText } | { side: 'native'; value: N };

/**
 * What a front door adds to the pipeline: how its requests reach the native backend (REST as
 * REST, gRPC as gRPC), which native answers are failures, and how an answer of either side reads
 * to the shadow comparator (REST JSON, or proto JSON for gRPC).
 */
export interface Door<W, N> {
  readonly protocol: Protocol;
  native(ex: Exchange<W>, origin: RequestOrigin): Promise<N>;
  nativeFailed(answer: N): boolean;
  comparable(ex: Exchange<W>, answer: Served<N> | ApiError): ComparedAnswer;
}

export interface PipelineDeps {
  v1: V1Client;
  services: AppServices;
  rollout: RolloutTraffic;
  /** whether a native backend is configured */
  native: boolean;
  /** whether this proxy sealed a page token (the translation side issued it) */
  issuedHere: (token: string) => boolean;
  shadow?: ShadowRunner | undefined;
  record?: RecordFile | undefined;
  metrics: ProxyMetrics;
  /** aborted when the drain's time is up: the only thing that stops shadow reads */
  shutdownSignal: LifeSignal;
  random?: () => number;
}

/** how long shadow work waits for a moment without client requests before it runs anyway */
const QUIET_WAIT_MS = 5;

/**
 * The one path of every v2 request, REST or gRPC: decide the side (rollout), serve it (translation
 * onto v1, or the native backend through the door), and once the door has answered, record it,
 * count it and shadow it. The doors only parse their protocol into an Exchange and render what
 * comes back; errors stay the registry's until a door renders them.
 */
export class ExchangePipeline {
  private readonly gate = new QuietGate();
  private readonly random: () => number;

  constructor(private readonly deps: PipelineDeps) {
    this.random = deps.random ?? Math.random;
  }

  /** Decides the side and serves the exchange there; the door renders the result, then calls `finish`. */
  async serve<W, N>(ex: Exchange<W>, door: Door<W, N>): Promise<Served<N>> {
    this.gate.enter();
    const { rollout } = this.deps;
    const token = ex.pageToken;
    const decision = rollout.decide({
      resource: ex.resource.mapping.resource,
      operation: ex.operation,
      headers: ex.headers,
      issuedHere: token === undefined ? undefined : () => this.deps.issuedHere(token),
    });
    ex.decision = decision;
    ex.side = decision.backend === 'native' && this.deps.native ? 'native' : 'translate';
    this.planShadow(ex, token !== undefined);
    if (ex.side === 'translate') return { side: 'translate', value: await this.translate(ex, ex.origin) };
    let answer: N;
    try {
      answer = await door.native(ex, ex.origin);
    } catch (err) {
      rollout.native(decision, true);
      throw err;
    }
    rollout.native(decision, door.nativeFailed(answer));
    return { side: 'native', value: answer };
  }

  /**
   * `serve`, with whatever it throws as the registry's error, which the door renders; an error that
   * is a bug (INTERNAL) is also handed to `bug` to be logged.
   */
  async answer<W, N>(ex: Exchange<W>, door: Door<W, N>, bug: (err: unknown) => void): Promise<Served<N> | ApiError> {
    try {
      return await this.serve(ex, door);
    } catch (err) {
      const error = toApiError(err);
      if (error.code === GrpcCode.INTERNAL) bug(err);
      return error;
    }
  }

  /** The translation side of an exchange, for a caller (the client's request, or a shadow read). */
  translate(ex: Exchange, origin: RequestOrigin): Promise<Json | JsonText> {
    return translateExchange(operationContext(this.deps.services, ex.resource, this.deps.v1, origin), ex);
  }

  /**
   * After the door has answered (`status`: the HTTP status, or the one a gRPC code stands for): the
   * request is counted and timed, recorded when it is a read, and shadowed when it was planned.
   * `answer`: what the client got, read only if a shadow compares it.
   */
  finish<W, N>(ex: Exchange<W>, door: Door<W, N>, status: number, answer: () => Served<N> | ApiError): void {
    this.gate.leave();
    const { metrics, record, shadow } = this.deps;
    const seconds = (performance.now() - ex.startedAt) / 1000;
    const rule = ex.decision?.why ?? 'no-rollout';
    metrics.served(ex.protocol, ex.resource.mapping.resource, ex.operation, ex.side, status, seconds, rule);
    this.deps.rollout.answered(ex.decision, ex.side, status >= 500, seconds);
    const read = ex.operation === 'list' || ex.operation === 'get';
    const planned = ex.shadow;
    if (!(record && read) && !(planned && shadow)) return;
    // a gRPC call's REST form is built here, once, for whichever of the two needs it
    const url = ex.restUrl();
    if (record && read) {
      record.record({
        time: new Date(this.deps.services.now()).toISOString(),
        method: 'GET',
        url,
        status,
        requestId: ex.origin.requestId,
        protocol: ex.protocol,
        // a read an operator forced to a side is marked: it is nobody's evidence
        ...(rule === 'override' ? { decision: rule } : {}),
      });
    }
    if (!planned || !shadow) return;
    const decision = ex.decision;
    const { config } = planned;
    shadow.submit({
      resource: ex.resource.mapping.resource,
      operation: ex.operation,
      served: ex.side,
      primary: () => door.comparable(ex, answer()),
      requestId: ex.origin.requestId,
      url,
      ignore: config.ignore,
      thresholds: { relative: config.relativeThreshold / 100, absolute: config.absoluteThreshold / 100 },
      noise: planned.noise,
      call: (side) => this.readFrom(ex, door, side),
      compared: (reported) => this.deps.rollout.compared(decision, reported),
    });
  }

  /** Whether this exchange is also read from the other side once answered (a share of a route's reads). */
  private planShadow(ex: Exchange, continued: boolean): void {
    const decision = ex.decision;
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
    // after the answer: only the drain stops a shadow read
    const origin: RequestOrigin = { ...ex.origin, signal: this.deps.shutdownSignal };
    let answer: Served<N> | ApiError;
    if (side === 'native') {
      // no answer from the native backend is a shadow that failed, not a difference
      answer = { side, value: await door.native(ex, origin) };
      await this.gate.wait(QUIET_WAIT_MS);
    } else {
      // the translation's work waits for a quiet moment; comparing it needs no second wait
      await this.gate.wait(QUIET_WAIT_MS);
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
