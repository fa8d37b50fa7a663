import { GrpcCode } from './grpc-codes.js';

/**
 * How a request (or one upstream attempt) ended, decided once, in `outcomeOf`: what the guard, the
 * progressive analysis, the request count, the span, the log line and the diff report all read.
 *
 * - `answered`: a side answered it (2xx, 3xx).
 * - `client_error`: a side (or the translation's checks) refused it for the client's own mistake (4xx).
 * - `backend_failure`: the side that served it failed (5xx, no answer, an attempt's timeout, an open breaker).
 * - `cancelled`: the client left before its answer (499, gRPC CANCELLED).
 * - `deadline`: the client's own deadline (`grpc-timeout`, `connect-timeout-ms`) passed first.
 * - `shutdown`: the drain's time ran out while it ran.
 * - `refused`: the proxy refused it before any side was asked (no credentials, a body or message it
 *   cannot read, a limit, no route, the shared store away before a side was asked).
 */
export type Outcome = 'answered' | 'client_error' | 'backend_failure' | 'cancelled' | 'deadline' | 'shutdown' | 'refused';

/** The outcomes of a request stopped before its answer, and what each is counted as. */
export type Stop = 'cancelled' | 'deadline' | 'shutdown';

export const STOPPED: Readonly<Record<Stop, { status: number; grpcCode: number }>> = {
  cancelled: { status: 499, grpcCode: GrpcCode.CANCELLED },
  deadline: { status: 504, grpcCode: GrpcCode.DEADLINE_EXCEEDED },
  shutdown: { status: 503, grpcCode: GrpcCode.UNAVAILABLE },
};

/** The registry's errors a stopped request's work ends with, and the stop each stands for. */
const STOP_OF_ENTRY: Readonly<Record<string, Stop>> = {
  REQUEST_CANCELLED: 'cancelled',
  CLIENT_DEADLINE_EXCEEDED: 'deadline',
  SHUTTING_DOWN: 'shutdown',
};

/** The stop a registry error stands for (its entry's name), if it is one. */
export function stopOf(entry: string): Stop | undefined {
  return STOP_OF_ENTRY[entry];
}

/** What one request or attempt is judged on. */
export interface Ended {
  /** the HTTP status answered (a gRPC call's: the one its code stands for) */
  status: number;
  /** whether a side (v1, the translation, the native backend) was asked */
  reached: boolean;
  /** stopped before its answer, and why */
  stopped: Stop | undefined;
}

/** The one classification. */
export function outcomeOf(e: Ended): Outcome {
  if (e.stopped) return e.stopped;
  if (!e.reached) return e.status < 400 ? 'answered' : 'refused';
  if (e.status >= 500) return 'backend_failure';
  if (e.status >= 400) return 'client_error';
  return 'answered';
}

/**
 * What an outcome is as evidence about the side that served it: a success, a failure, or nothing.
 * Only a backend's failure counts against its side; a client's mistake, a client gone, a deadline,
 * a drain or a refusal before any side counts neither way.
 */
export function evidenceOf(outcome: Outcome): 'good' | 'bad' | undefined {
  if (outcome === 'answered') return 'good';
  if (outcome === 'backend_failure') return 'bad';
  return undefined;
}

/** Every outcome, in the order the docs table lists them. */
export const OUTCOMES: readonly Outcome[] = ['answered', 'client_error', 'backend_failure', 'cancelled', 'deadline', 'shutdown', 'refused'];
