// gRPC status codes and grpc-gateway's code → HTTP table (runtime.HTTPStatusFromCode). Both v1 and the
// v2 surface are gateways, so the proxy and the emulator answer with the same table.

export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type GrpcCodeName = keyof typeof GrpcCode;
export type GrpcCodeNumber = (typeof GrpcCode)[GrpcCodeName];

const HTTP_BY_CODE: Record<GrpcCodeNumber, number> = {
  0: 200,
  1: 499,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400, // deliberately not 412: the gateway maps FAILED_PRECONDITION to 400
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

const NAME_BY_CODE = Object.fromEntries(Object.entries(GrpcCode).map(([name, code]) => [code, name])) as Record<GrpcCodeNumber, GrpcCodeName>;

export function httpStatusOf(code: GrpcCodeNumber): number {
  return HTTP_BY_CODE[code];
}

export function codeName(code: GrpcCodeNumber): GrpcCodeName {
  return NAME_BY_CODE[code];
}

export function isGrpcCode(value: unknown): value is GrpcCodeNumber {
  return typeof value === 'number' && Object.hasOwn(HTTP_BY_CODE, value);
}
