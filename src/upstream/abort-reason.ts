import { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/error-registry.js';
import type { LifeSignal } from './request-life.js';
import { type Stop, stopOf } from '../errors/request-outcome.js';

/**
 * Why a request's work was stopped, as the error it ends with: the reason the proxy gave (shutting
 * down), the client's own deadline passing (gRPC), or else the client going away.
 */
export function abortReason(signal: LifeSignal): ApiError {
  const reason = signal.reason as { name?: unknown; code?: unknown } | undefined;
  if (reason instanceof ApiError) return reason;
  // connect's reason when a call's grpc-timeout passes: a ConnectError with DeadlineExceeded (4)
  if (reason?.name === 'ConnectError' && reason.code === 4) return apiError('CLIENT_DEADLINE_EXCEEDED');
  return apiError('REQUEST_CANCELLED');
}

/** The stop a stopped request's upstream call is counted as. */
export function stopOfSignal(signal: LifeSignal): Stop {
  return stopOf(abortReason(signal).entry) ?? 'cancelled';
}
