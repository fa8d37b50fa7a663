import type { Duplex } from 'node:stream';
import { Dispatcher, errors, type Pool } from 'undici';
import { DeadlineExceededError } from './attempt-timeout.js';
import { ANSWER_DOWN, ANSWER_UP, type AttemptEnd, type CallPolicy } from './call-policy.js';
import { abortReason } from './abort-reason.js';
import type { AttemptSpan, CallSpans } from './attempt-spans.js';
import type { LifeSignal } from './request-life.js';
import { withRequestId } from './stamp-request-id.js';

/**
 * Dispatch options of the proxy's own: the life of the request a call is for, read before each
 * retry (a retry never starts for a request that is gone), and the spans of its attempts (a traced
 * request's), each attempt carrying its own span as the parent in `traceparent`.
 */
export interface LifeOption {
  life?: LifeSignal | undefined;
  spans?: CallSpans | undefined;
}

// reads only go again: a write that failed may still have landed
const READS = new Set(['GET', 'HEAD']);
const STATUSES_DOWN = new Set([502, 503, 504]);
// the connection failed before an answer began
const UNREACHABLE = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** How an attempt undici ended with an error ended, in the policy's terms. */
function endOf(err: Error, stopped: boolean): AttemptEnd {
  if (stopped) return { failed: 'stopped' };
  switch ((err as { code?: string }).code) {
    case 'V2PROXY_ATTEMPT_TIMEOUT':
      return { failed: 'attempt-timeout' };
    case 'V2PROXY_DEADLINE':
      return { failed: 'deadline' };
    case 'UND_ERR_RES_EXCEEDED_MAX_SIZE':
      return { failed: 'too-large' };
    case 'UND_ERR_ABORTED':
      return { failed: 'stopped' };
    default:
      return UNREACHABLE.has((err as { code?: string }).code ?? '') ? { failed: 'unreachable' } : { failed: 'broken' };
  }
}

/** undici's older handler interface: what its request API hands a dispatcher (and what its pools call). */
export interface LegacyHandler {
  onConnect?(abort: (reason?: Error) => void, context?: object): void;
  onUpgrade?(statusCode: number, headers: Buffer[] | string[] | null, socket: Duplex): void;
  onResponseStarted?(): void;
  onHeaders?(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean;
  onData?(chunk: Buffer): boolean;
  onComplete?(trailers: string[] | null): void;
  onError?(err: Error): void;
  onBodySent?(chunk: Buffer): void;
  onRequestSent?(): void;
}
export type Abort = (reason?: Error) => void;

/**
 * One call to a backend over undici as one handler, under the backend's CallPolicy: each attempt
 * is admitted by it, has a timer (the answer must start within the attempt timeout, and be whole
 * by the call's deadline), and its end is settled by it (a read it says goes again does, its
 * answer's body let go); the caller sees one call. No handler wrapper per concern: the path of
 * every request.
 */
class BackendCall {
  private retries = 0;
  private abortAttempt: Abort | undefined;
  private callerAbort: Error | undefined;
  private told = false;
  private started = false;
  private dropping = false;
  private delay = 0;
  private recorded = false;
  private admitted: 'go' | 'trial' = 'go';
  private readonly read: boolean;
  private timer: NodeJS.Timeout | undefined;
  private waiting: NodeJS.Timeout | undefined;
  private readonly deadline: number;
  private readonly life: LifeSignal | undefined;
  private readonly spans: CallSpans | undefined;
  private span: AttemptSpan | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly opts: Dispatcher.DispatchOptions,
    private readonly next: LegacyHandler,
    private readonly policy: CallPolicy,
    /** without a call deadline, whether the attempt timeout is ours to keep (else undici's headersTimeout is the bound) */
    private readonly attemptTimer: boolean,
  ) {
    this.deadline = (opts as { deadline?: number }).deadline ?? Number.POSITIVE_INFINITY;
    this.life = (opts as LifeOption).life;
    this.spans = (opts as LifeOption).spans;
    this.read = READS.has(opts.method);
    // a read stops the moment its request does (its client gone, its deadline, the drain); a write
    // already sent is let finish, so what it did is known (a keyed create's record, a lock's release)
    if (this.life && this.read) this.life.addEventListener('abort', this.lifeEnded);
  }

  private readonly lifeEnded = (): void => {
    this.abortByCaller(abortReason(this.life as LifeSignal));
  };

  /** The caller has its answer or its error: the request's life no longer concerns this call. */
  done(): void {
    this.life?.removeEventListener('abort', this.lifeEnded);
  }

  /** The call's error, told to its caller: the call is over. */
  private fail(err: Error): void {
    this.done();
    this.next.onError?.(err);
  }

  /** The next attempt; an open circuit refuses it (thrown: the caller's call fails at once). */
  attempt(): boolean {
    this.admitted = this.policy.admit();
    this.recorded = false;
    if (this.spans) {
      this.span = this.spans.attempt(this.retries);
      // (the call's own headers object, made for this call)
      (this.opts.headers as Record<string, string>).traceparent = this.span.traceparent;
    }
    return this.pool.dispatch(this.opts, this as unknown as Dispatcher.DispatchHandler);
  }

  /**
   * How the attempt ended (`trace`: its status, or its error's code, for its span), settled once by
   * the policy: the wait before the next attempt when the call goes again (`retry`: nothing of its
   * answer has reached the caller), else undefined.
   */
  private settle(end: AttemptEnd, trace: number | string, retry: boolean): number | undefined {
    if (this.recorded) return undefined;
    this.recorded = true;
    if (this.span) {
      this.span.end(typeof trace === 'number' ? { status: trace } : { error: trace });
      this.span = undefined;
    }
    this.policy.settle(end, this.admitted);
    if (!retry || !this.read) return undefined;
    return this.policy.retryAfter(end, this.retries, this.finite(), (this.opts as { retryOptions?: { maxRetries?: number } }).retryOptions?.maxRetries);
  }

  private finite(): number | undefined {
    return Number.isFinite(this.deadline) ? this.deadline : undefined;
  }

  private arm(ms: number, reason: () => Error): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.abortAttempt?.(reason()), Math.max(0, ms));
    this.timer.unref();
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The caller gives up: the attempt under way stops, and a retry waiting for its turn never goes. */
  private readonly abortByCaller = (reason?: Error): void => {
    this.callerAbort ??= reason ?? new errors.RequestAbortedError();
    if (this.waiting !== undefined) {
      clearTimeout(this.waiting);
      this.waiting = undefined;
      this.fail(this.callerAbort);
      return;
    }
    this.abortAttempt?.(this.callerAbort);
  };

  private again(): void {
    this.retries += 1;
    this.waiting = setTimeout(() => {
      this.waiting = undefined;
      this.dropping = false;
      // the request this call is for is gone: no further attempt starts for it
      if (this.life?.aborted) {
        this.fail(abortReason(this.life));
        return;
      }
      try {
        this.attempt();
      } catch (err) {
        this.fail(err as Error);
      }
    }, this.delay);
  }

  onConnect(abort: Abort, context?: object): void {
    this.abortAttempt = abort;
    if (this.callerAbort) {
      abort(this.callerAbort);
      return;
    }
    const limit = Number.isFinite(this.deadline) || this.attemptTimer ? this.policy.limit(this.deadline) : undefined;
    if (limit) this.arm(limit.ms, limit.error);
    // the caller hears of the start once (an attempt that failed to connect may never have started)
    if (this.told) return;
    this.told = true;
    this.next.onConnect?.(this.abortByCaller, context);
  }

  onUpgrade(statusCode: number, headers: Buffer[] | string[] | null, socket: Duplex): void {
    this.stop();
    this.next.onUpgrade?.(statusCode, headers, socket);
  }

  onResponseStarted(): void {
    this.next.onResponseStarted?.();
  }

  onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    const delay = this.settle(STATUSES_DOWN.has(statusCode) ? ANSWER_DOWN : ANSWER_UP, statusCode, !this.started);
    if (delay !== undefined) {
      // a retryable answer: its body is let go, another attempt follows it
      this.dropping = true;
      this.delay = delay;
      this.stop();
      return true;
    }
    this.started = true;
    // answering: from here only the deadline bounds the body
    if (Number.isFinite(this.deadline)) this.arm(this.deadline - Date.now(), () => new DeadlineExceededError(this.policy.deadlineMs));
    else this.stop();
    return this.next.onHeaders?.(statusCode, headers, resume, statusText) ?? true;
  }

  onData(chunk: Buffer): boolean {
    if (this.dropping) return true;
    return this.next.onData?.(chunk) ?? true;
  }

  onComplete(trailers: string[] | null): void {
    this.stop();
    if (this.dropping) {
      if (this.callerAbort) {
        this.fail(this.callerAbort);
      } else this.again();
      return;
    }
    this.done();
    this.next.onComplete?.(trailers);
  }

  onError(err: Error): void {
    this.stop();
    const end = endOf(err, this.callerAbort !== undefined);
    const delay = this.settle(end, (err as { code?: string }).code ?? err.name, !this.started && !this.dropping);
    if (delay !== undefined) {
      this.delay = delay;
      this.again();
      return;
    }
    this.fail(err);
  }

  onBodySent(chunk: Buffer): void {
    this.next.onBodySent?.(chunk);
  }

  onRequestSent(): void {
    this.next.onRequestSent?.();
  }
}

/**
 * A backend's dispatcher: its pool, and for each call one `BackendCall` under the backend's
 * policy. It takes undici's request API (what every path of the proxy calls it with).
 */
export class BackendCallDispatcher extends Dispatcher {
  constructor(
    private readonly pool: Pool,
    private readonly policy: CallPolicy,
  ) {
    super();
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const legacy = handler as unknown as LegacyHandler;
    if (typeof legacy.onHeaders !== 'function')
      throw new errors.InvalidArgumentError("a backend's dispatcher takes undici's request API (request, stream, pipeline), not a raw dispatch handler");
    this.policy.begin();
    const attemptTimer = this.policy.attemptMs < this.policy.deadlineMs && opts.headersTimeout == null;
    const call = new BackendCall(this.pool, withRequestId(opts), legacy, this.policy, attemptTimer);
    try {
      return call.attempt();
    } catch (err) {
      call.done();
      // refused before it started (an open circuit): told to the handler, as undici's own dispatchers do
      legacy.onError?.(err as Error);
      return false;
    }
  }

  // closing and destroying go to the pool itself (backendDispatcher does): the dispatcher only dispatches
  override close(...args: never[]): never {
    return (this.pool.close as (...a: never[]) => never)(...args);
  }

  override destroy(...args: never[]): never {
    return (this.pool.destroy as (...a: never[]) => never)(...args);
  }
}
