import type { ApiError } from '../errors/api-error.js';
import { renderError } from '../errors/render-error.js';
import { toApiError } from '../errors/to-api-error.js';
import { JsonText } from '../json/json-text.js';
import { paramValues } from '../list/query-params.js';
import { getResource } from '../operations/get-resource.js';
import { type AppServices, operationContext, type RequestOrigin } from '../operations/operation-context.js';
import { shownWithoutTimes } from '../operations/update-resource.js';
import { WRITE_OPERATIONS } from '../rollout/rollout-config.js';
import type { RolloutTraffic } from '../rollout/rollout-traffic.js';
import { answerBody } from '../shadow/answer-body.js';
import type { ComparedAnswer } from '../shadow/compare-answers.js';
import { answerOnlyFields, intentOf, movingFields, type WriteOperation } from '../shadow/write-intent.js';
import type { WriteVerifier } from '../shadow/write-verifier.js';
import { isUidp } from '../uidp/uidp.js';
import type { NativeV2Client } from '../upstream/native-v2-client.js';
import type { LifeSignal } from '../upstream/request-life.js';
import type { V1Client } from '../upstream/v1-client.js';
import { type Exchange, type PreImage, type Side, sideOf } from './exchange.js';
import type { Door, Served } from './door.js';

const REST_METHOD: Record<WriteOperation, string> = { create: 'POST', update: 'PATCH', delete: 'DELETE' };

export interface VerifiedWritesDeps {
  verifier?: WriteVerifier | undefined;
  /** the native backend's REST surface: what a write is read back from natively, whichever door it came by */
  nativeReads?: NativeV2Client | undefined;
  /** whether a native backend is configured (without one there is no other side) */
  native: boolean;
  v1: V1Client;
  services: AppServices;
  rollout: RolloutTraffic;
  shutdownSignal: LifeSignal;
  random: () => number;
}

/**
 * The pipeline's part of write verification: which writes are verified (a route's `verifyWrites`
 * share, evidence only), an update's pre-image, each answered write told to the verifier, and the
 * reads a verification makes of the written resource on each side.
 */
export class VerifiedWrites {
  constructor(private readonly deps: VerifiedWritesDeps) {}

  /** Whether an operation is a write this part looks at (with a verifier). */
  planned(operation: string): boolean {
    return this.deps.verifier !== undefined && (WRITE_OPERATIONS as readonly string[]).includes(operation);
  }

  /**
   * Whether this write is verified once answered (a share of a route's writes, as evidence only);
   * an update's pre-image is read from its side first, and its resource's generation held.
   */
  async plan(ex: Exchange): Promise<void> {
    const { verifier } = this.deps;
    const decision = ex.call.decision;
    const config = decision?.route?.route;
    if (!config || !verifier || !this.deps.native || decision?.why === 'kill-switch' || decision?.evidence === false) return;
    if (config.verifyWrites <= 0 || this.deps.random() * 100 >= config.verifyWrites) return;
    const planned: NonNullable<Exchange['verify']> = { config, generation: 0, before: undefined };
    ex.verify = planned;
    if (ex.operation === 'create') return;
    planned.generation = verifier.begin(this.writeKey(ex, ex.input.uid));
    if (ex.operation !== 'update' || !isUidp(ex.input.uid)) return;
    if (sideOf(ex) === 'translate') {
      // the translation reads the record it changes anyway: that read is the pre-image (shown later, off its path)
      ex.origin.preImage = (record) => {
        planned.before = { record };
      };
      return;
    }
    // the native side's is read just before the write: the verification's time, not the side's, so
    // the analysis leaves it out of the write's timing
    const started = performance.now();
    try {
      const before = await this.readBack(ex, sideOf(ex), ex.input.uid, ex.origin);
      if (before.status === 200) planned.before = { shown: before.body };
    } catch {
      // no pre-image: the unchanged fields go unchecked
    } finally {
      ex.call.offClockMs += performance.now() - started;
    }
  }

  private writeKey(ex: Exchange, uid: string): string {
    return `${ex.resource.mapping.resource}/${uid}`;
  }

  /** An answered write: a held resource's generation moves on, and a planned verification starts if it succeeded. */
  answered<W, N>(ex: Exchange<W>, door: Door<W, N>, answered: Served<N> | ApiError | undefined, status: number): void {
    const { verifier } = this.deps;
    if (!verifier) return;
    if (ex.operation !== 'create') verifier.wrote(this.writeKey(ex, ex.input.uid));
    const planned = ex.verify;
    if (!planned) return;
    const operation = ex.operation as WriteOperation;
    const held = operation === 'create' ? undefined : this.writeKey(ex, ex.input.uid);
    const answer = answered && status >= 200 && status < 300 ? door.comparable(ex, answered) : undefined;
    const uid = operation === 'create' ? (answer?.body as { uid?: unknown } | undefined)?.uid : ex.input.uid;
    const intent = intentOf(ex.resource, operation, ex.input.body, paramValues(ex.input.query, 'update_mask').join(','));
    // (a created uid is read from an answer: only a well-formed one is read back)
    if (!answer || typeof uid !== 'string' || !isUidp(uid) || !intent) {
      if (held) verifier.end(held);
      return;
    }
    const key = this.writeKey(ex, uid);
    // a write that another overtook before it answered is checked against the other side only
    const generation = operation === 'create' ? verifier.begin(key) : verifier.generation(key) === planned.generation + 1 ? planned.generation + 1 : -1;
    const { config } = planned;
    const decision = ex.call.decision;
    verifier.submit({
      resource: ex.resource.mapping.resource,
      operation,
      served: sideOf(ex),
      key,
      requestId: ex.origin.requestId,
      url: `${REST_METHOD[operation]} ${ex.restUrl()}`,
      intent,
      answer: operation === 'delete' ? undefined : answer.body,
      before: generation === -1 ? undefined : () => this.preImageOf(ex, planned.before),
      generation,
      ignore: config.ignore,
      moving: movingFields(ex.resource),
      answerOnly: answerOnlyFields(ex.resource),
      thresholds: { relative: config.relativeThreshold / 100, absolute: config.absoluteThreshold / 100 },
      noise: this.deps.random() * 100 < config.noise,
      read: (side) => this.readBack(ex, side, uid, this.afterAnswer(ex)),
      verified: (differed) => this.deps.rollout.verified(decision, differed),
    });
  }

  /** An update's pre-image as the verification compares it: the native side's as read, the translation's v1 record as a Get shows it. */
  private async preImageOf(ex: Exchange, before: PreImage | undefined): Promise<unknown> {
    if (!before) return undefined;
    if ('shown' in before) return before.shown;
    return shownWithoutTimes(operationContext(this.deps.services, ex.resource, this.deps.v1, this.afterAnswer(ex)), before.record);
  }

  /** The writer's origin for work after its answer: only the drain stops it, and it is no request's span. */
  private afterAnswer(ex: Exchange): RequestOrigin {
    return { ...ex.origin, signal: this.deps.shutdownSignal, spans: undefined, preImage: undefined };
  }

  /**
   * A Get of a written resource through a side, in REST form (what the verification compares), with
   * the writer's credentials (the verifier waits for a quiet moment before it reads).
   */
  private async readBack(ex: Exchange, side: Side, uid: string, origin: RequestOrigin): Promise<ComparedAnswer> {
    const path = `${ex.resource.prefix}/${ex.resource.segment}/${uid}`;
    if (side === 'native') {
      const native = this.deps.nativeReads;
      if (!native) throw new Error('no native backend to read from');
      const answer = await native.forward({ ...origin, method: 'GET', url: path, contentType: undefined, body: undefined });
      return { status: answer.status, body: answerBody(answer.body.toString('utf8')) };
    }
    try {
      const value = await getResource(operationContext(this.deps.services, ex.resource, this.deps.v1, origin), uid);
      return { status: 200, body: value instanceof JsonText ? answerBody(value.text) : value };
    } catch (err) {
      const rendered = renderError(toApiError(err), path);
      return { status: rendered.status, body: rendered.body };
    }
  }
}
