import { GrpcCode, type GrpcCodeNumber } from './grpc-codes.js';

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
}

/**
 * The one error type of the proxy. `detail` is the message without its code prefix; rendering adds the
 * prefix, the ErrorInfo and the typed details (see render-error.ts).
 */
export class ApiError extends Error {
  constructor(
    readonly code: GrpcCodeNumber,
    readonly detail: string,
    readonly details: ApiErrorDetails = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  static invalidArgument(violations: FieldViolation[]): ApiError {
    const text = violations.map((v) => `${v.field}: ${v.description}`).join('; ');
    return new ApiError(GrpcCode.INVALID_ARGUMENT, text, { fieldViolations: violations });
  }

  static failedPrecondition(violation: PreconditionViolation): ApiError {
    return new ApiError(GrpcCode.FAILED_PRECONDITION, violation.description, { preconditionViolations: [violation] });
  }
}
