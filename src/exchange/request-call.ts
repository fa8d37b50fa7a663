import type { Decision } from '../rollout/decide-backend.js';
import type { TracedRequest } from '../telemetry/traced-request.js';
import { BACKEND_HEADER, type Protocol, type Side } from './sides.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { type Outcome, outcomeOf, STOPPED, type Stop } from '../errors/request-outcome.js';

/**
 * A request's work, as its door runs it: it calls `call.end()` once the answer is out (or the
 * client is gone). Doors answer on transport events (a stream's close, undici's handler calls,
 * fastify's completion), so the end is a call, not a promise: what is written around the request
 * happens in the same turn as that event, and no promise or closure is made for it per request.
 */
export type Work = (call: RequestCall) => void;

/** The way a request came in that is counted: a v2 door (REST, gRPC) or the v1 passthrough. */
export type Way = Protocol | 'v1';

/** What a request's log line says of it, given by its door when it is answered. */
export interface LineSource {
  method: string;
  url: string;
  version?: string | string[] | undefined;
  host: string | undefined;
  remoteAddress: string | undefined;
  remotePort: number | undefined;
  /** the status on the wire (a gRPC call's is 200) */
  statusCode: number;
  grpcStatus?: string | undefined;
}

/**
 * One request, whichever way it came in: the one value its door, the pipeline and what is written
 * around the work (`around-request.ts`) share. The door opens it; the door and the pipeline fill
 * in what they learn (the route, the side and why, the status); the interceptors read it once the
 * answer is out. A request of no counted way (admin, health, token exchange) is only logged.
 */
export class RequestCall {
  /** the way it came in: none for a request that is only logged */
  way: Way | undefined = undefined;
  /** the resource and operation, once the door has read them */
  resource = 'unknown';
  operation = 'unknown';
  /** the side that answered: a v2 request is the translation's until the rollout sends it native */
  side: Side | 'v1' | undefined = undefined;
  decision: Decision | undefined = undefined;
  /** the pipeline ran it: its answer feeds the rollout's analysis */
  exchanged = false;
  /** the HTTP status counted (a gRPC call's: the one its code stands for) */
  status = 500;
  grpcCode: number | undefined = undefined;
  /** a read in its REST form, when the record file may keep it */
  readUrl: (() => string) | undefined = undefined;
  /** its server span, when traced */
  traced: TracedRequest | undefined = undefined;
  /** the trace id of the client's valid `traceparent`: what its log line names when it is not traced here */
  clientTraceId: string | undefined = undefined;
  /** a side (v1, the translation, the native backend) was asked: a request refused before is nobody's */
  reached = false;
  /** stopped before its answer (the client left, its deadline passed, the drain): the first stop says */
  stopped: Stop | undefined = undefined;
  /** how it ended, decided once as it ends (`request-outcome.ts`): what everything around it reads */
  outcome: Outcome = 'answered';
  /** time on its path that is no side's own (a verified write's pre-read), ms: left out of its timing as the analysis sees it */
  offClockMs = 0;
  /** a bug met on the way (answered INTERNAL): logged with the request */
  failure: unknown = undefined;
  /** the transport failed under the answer */
  broken: Error | undefined = undefined;
  /** its answer has its status: a client gone now or later ends it */
  rendered = false;
  /** what its log line says; none: no line (logging is off for it) */
  source: LineSource | undefined = undefined;
  /** its door's work (set by `around-request.ts`), and what runs when it ends */
  work: Work | undefined = undefined;
  ended = false;
  private readonly afterParts: ((call: RequestCall) => void)[] = [];

  constructor(
    way: Way | undefined,
    readonly requestId: string,
    /** when it came (performance.now()) */
    readonly startedAt = performance.now(),
  ) {
    if (way) this.countAs(way);
  }

  /** An after-part of what is written around it, run when it ends. */
  onEnd(after: (call: RequestCall) => void): void {
    this.afterParts.push(after);
  }

  /**
   * The answer is out, or the client is gone: the after-parts run, once, innermost first, each
   * whatever the others did (one that throws is the request's failure, which the log line shows).
   */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const stop = this.stopped;
    if (stop) {
      // the same event, the same count, whichever door: 499 / CANCELLED, 504 / DEADLINE_EXCEEDED, 503 / UNAVAILABLE
      this.status = STOPPED[stop].status;
      if (this.way === 'grpc' || this.grpcCode !== undefined) this.grpcCode = STOPPED[stop].grpcCode;
    }
    this.outcome = outcomeOf(this);
    const parts = this.afterParts;
    for (let i = parts.length - 1; i >= 0; i -= 1) {
      try {
        (parts[i] as (call: RequestCall) => void)(this);
      } catch (err) {
        this.failure ??= err;
      }
    }
  }

  /** It stopped before its answer (the first stop is the one counted). */
  stop(why: Stop): void {
    this.stopped ??= why;
  }

  /** The way it came in, once known (a fastify route says it after the request was opened). */
  countAs(way: Way): void {
    this.way = way;
    this.side = way === 'v1' ? 'v1' : 'translate';
  }

  /** Why it went where it went: the rollout's rule, or how it was answered without one. */
  get rule(): string {
    if (this.decision) return this.decision.why;
    if (this.exchanged) return 'no-rollout';
    return this.way === 'v1' ? 'passthrough' : 'refused';
  }
}

const NOSNIFF = 'nosniff';

/**
 * The headers every answer carries, written by each door its own way: the request id, `nosniff`
 * (no answer of this origin is read as anything but its declared type: backends' bodies pass
 * through it), and for a v2 request the side that served it.
 */
export function answerHead(call: RequestCall): Record<string, string> {
  const head: Record<string, string> = { [REQUEST_ID_HEADER]: call.requestId, 'x-content-type-options': NOSNIFF };
  if (call.way === 'rest' || call.way === 'grpc') head[BACKEND_HEADER] = call.side as string;
  return head;
}
