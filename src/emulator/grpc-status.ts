import { GrpcCode, type GrpcCodeNumber, httpStatusOf } from '../errors/grpc-codes.js';

export { GrpcCode, httpStatusOf };

/** The only error type the emulator throws; rendered as `{code, message, details: []}`. */
export class V1Error extends Error {
  constructor(
    readonly code: GrpcCodeNumber,
    message: string,
  ) {
    super(message);
    this.name = 'V1Error';
  }

  get httpStatus(): number {
    return httpStatusOf(this.code);
  }

  toBody(): { code: number; message: string; details: [] } {
    return { code: this.code, message: this.message, details: [] };
  }
}

export const invalid = (message: string) => new V1Error(GrpcCode.INVALID_ARGUMENT, message);
export const notFound = (message: string) => new V1Error(GrpcCode.NOT_FOUND, message);
export const denied = (message = 'permission denied') => new V1Error(GrpcCode.PERMISSION_DENIED, message);
export const unauthenticated = (message = 'unauthenticated') => new V1Error(GrpcCode.UNAUTHENTICATED, message);
export const failedPrecondition = (message: string) => new V1Error(GrpcCode.FAILED_PRECONDITION, message);
export const alreadyExists = (message: string) => new V1Error(GrpcCode.ALREADY_EXISTS, message);
