import type { GrpcCodeNumber } from './grpc-codes.js';

export interface FieldViolation {
  field: string;
  description: string;
}

export interface PreconditionViolation {
  type: string;
  subject?: string;
  description: string;
}

export interface ApiErrorDetails {
  fieldViolations?: FieldViolation[];
  preconditionViolations?: PreconditionViolation[];
  metadata?: Record<string, string>;
  /** the methods the path serves, for a wrong method's Allow header (REST only) */
  allow?: readonly string[];
}

/**
 * The one error type of the proxy, made only through the registry (`apiError` in error-registry.ts).
 * `detail` is the message without its code prefix; rendering adds the prefix, the ErrorInfo and the
 * typed details (see render-error.ts). `entry` names the registry entry it came from.
 */
export class ApiError extends Error {
  constructor(
    readonly code: GrpcCodeNumber,
    readonly detail: string,
    readonly details: ApiErrorDetails = {},
    readonly entry: string = 'INTERNAL',
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}
