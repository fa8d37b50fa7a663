/** The two doors of the v2 surface: REST, and gRPC (gRPC proper, gRPC-Web and Connect). */
export type Protocol = 'rest' | 'grpc';
/** The two sides a v2 request may be served on: translated onto v1, or the native backend. */
export type Side = 'translate' | 'native';

/** The header (REST) or metadata key (gRPC) that says which side served an answer, and asks for one. */
export const BACKEND_HEADER = 'x-v2proxy-backend';
