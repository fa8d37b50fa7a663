import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import type { RolloutTraffic } from '../rollout/rollout-traffic.js';
import type { RecordFile } from '../shadow/record-file.js';
import type { RequestCall, Work } from './request-call.js';

/**
 * What is written around every request, once for all ways in (connect-es's interceptor shape,
 * `next => call => …`): its own part before `next`, and its after-part handed to the call
 * (`call.onEnd`), run when the request ends, innermost first, each whatever the others did.
 */
export type Interceptor = (next: Work) => Work;

/** An interceptor whose whole part comes after the answer. */
export function afterAnswer(after: (call: RequestCall) => void): Interceptor {
  return (next) => (call) => {
    call.onEnd(after);
    next(call);
  };
}

/** The log line (and a bug's line before it), when the request's logging is on. */
export const logged = (write: (call: RequestCall) => void): Interceptor => afterAnswer(write);

/** Its server span ends with its status, the side that answered and why. */
export const traced: Interceptor = afterAnswer((call) => {
  call.traced?.end({
    status: call.status,
    grpcCode: call.grpcCode,
    outcome: call.outcome,
    attributes: call.exchanged ? { 'v2proxy.side': call.side, 'v2proxy.decision': call.rule, 'v2proxy.resource': call.resource } : undefined,
  });
});

const seconds = (call: RequestCall) => (performance.now() - call.startedAt) / 1000;

/** Every answer of a counted way, refused ones included, counted once with its protocol. */
export const counted = (metrics: ProxyMetrics): Interceptor =>
  afterAnswer((call) => {
    if (call.way === undefined) return;
    metrics.served(call.way, call.resource, call.operation, call.reached ? (call.side as string) : 'none', call.status, call.outcome, seconds(call), call.rule);
  });

/**
 * An answer the pipeline made feeds the rollout (the guard, the analysis, the fleet's figures) by
 * its outcome, timed without what was no side's work (a verified write's pre-read).
 */
export const fed = (rollout: RolloutTraffic): Interceptor =>
  afterAnswer((call) => {
    if (call.exchanged)
      rollout.answered(
        call.decision,
        call.resource,
        call.operation,
        call.side === 'native' ? 'native' : 'translate',
        call.outcome,
        seconds(call) - call.offClockMs / 1000,
      );
  });

/** A v2 read, as the record file keeps it (a read an operator forced to a side is marked: it is nobody's evidence). */
export const recorded = (record: RecordFile, now: () => number): Interceptor =>
  afterAnswer((call) => {
    if (call.readUrl === undefined || (call.way !== 'rest' && call.way !== 'grpc')) return;
    record.record({
      time: new Date(now()).toISOString(),
      method: 'GET',
      url: call.readUrl(),
      status: call.status,
      requestId: call.requestId,
      protocol: call.way,
      ...(call.rule === 'override' ? { decision: 'override' as const } : {}),
    });
  });

/**
 * The interceptors composed once, outermost first, around each request's work: `run` starts the
 * work; a throw from it is the request's failure and ends it.
 */
export class AroundRequest {
  private readonly chain: Work;

  constructor(interceptors: readonly Interceptor[]) {
    this.chain = interceptors.reduceRight<Work>(
      (next, interceptor) => interceptor(next),
      (call) => (call.work as Work)(call),
    );
  }

  run(call: RequestCall, work: Work): void {
    call.work = work;
    try {
      this.chain(call);
    } catch (err) {
      call.failure ??= err;
      call.end();
    }
  }
}
