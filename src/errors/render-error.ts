import type { ApiError } from './api-error.js';
import { ERRORS, type ErrorEntry } from './error-registry.js';
import { GrpcCode, type GrpcCodeNumber, codeName, httpStatusOf } from './grpc-codes.js';

const TYPE = 'type.googleapis.com/google.rpc.';

const PREFIX: Record<GrpcCodeNumber, string> = {
  [GrpcCode.OK]: '',
  [GrpcCode.CANCELLED]: 'Cancelled: ',
  [GrpcCode.UNKNOWN]: 'Unknown: ',
  [GrpcCode.INVALID_ARGUMENT]: 'Invalid argument: ',
  [GrpcCode.DEADLINE_EXCEEDED]: 'Deadline exceeded: ',
  [GrpcCode.NOT_FOUND]: 'Not found: ',
  [GrpcCode.ALREADY_EXISTS]: 'Already exists: ',
  [GrpcCode.PERMISSION_DENIED]: 'Permission denied: ',
  [GrpcCode.RESOURCE_EXHAUSTED]: 'Resource exhausted: ',
  [GrpcCode.FAILED_PRECONDITION]: 'Precondition failed: ',
  [GrpcCode.ABORTED]: 'Aborted: ',
  [GrpcCode.OUT_OF_RANGE]: 'Out of range: ',
  [GrpcCode.UNIMPLEMENTED]: 'Unimplemented: ',
  [GrpcCode.INTERNAL]: 'Internal: ',
  [GrpcCode.UNAVAILABLE]: 'Unavailable: ',
  [GrpcCode.DATA_LOSS]: 'Data loss: ',
  [GrpcCode.UNAUTHENTICATED]: 'Unauthenticated: ',
};

/** The error domain of a request path: the service that owns it. */
export function domainOf(path: string): string {
  if (path.startsWith('/registry/')) return 'registry.chainguard.dev';
  if (path.startsWith('/vulnerabilities/')) return 'vulnerabilities.chainguard.dev';
  return 'iam.chainguard.dev';
}

export interface RenderedError {
  status: number;
  body: { code: number; message: string; details: Record<string, unknown>[] };
  /** the Allow header of a wrong method's answer */
  allow?: string;
}

/** AIP-193: `{code, message, details}` with one ErrorInfo, plus BadRequest or PreconditionFailure. */
export function renderError(err: ApiError, path: string): RenderedError {
  const reason = codeName(err.code);
  const details: Record<string, unknown>[] = [
    {
      '@type': `${TYPE}ErrorInfo`,
      reason,
      domain: domainOf(path),
      ...(err.details.metadata ? { metadata: err.details.metadata } : {}),
    },
  ];
  if (err.details.fieldViolations?.length) {
    details.push({ '@type': `${TYPE}BadRequest`, fieldViolations: err.details.fieldViolations });
  }
  if (err.details.preconditionViolations?.length) {
    details.push({ '@type': `${TYPE}PreconditionFailure`, violations: err.details.preconditionViolations });
  }
  // an entry may answer with its own status (408 for a request too slow to arrive, 431 for headers too large)
  const entry: ErrorEntry | undefined = Object.hasOwn(ERRORS, err.entry) ? ERRORS[err.entry as keyof typeof ERRORS] : undefined;
  return {
    status: entry?.http ?? httpStatusOf(err.code),
    body: { code: err.code, message: `${PREFIX[err.code]}${err.detail}`, details },
    ...(err.details.allow ? { allow: err.details.allow.join(', ') } : {}),
  };
}
