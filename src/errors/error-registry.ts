import { ApiError, type ApiErrorDetails, type FieldViolation, type PreconditionViolation } from './api-error.js';
import { GrpcCode, type GrpcCodeNumber, httpStatusOf } from './grpc-codes.js';

/** One named error: its gRPC code (or the v1 answer's own), its message template, and when it happens. */
export interface ErrorEntry {
  code: GrpcCodeNumber | 'v1';
  /** the message after the code prefix; `{name}` is filled from the parameters */
  template: string;
  when: string;
  /** the HTTP status when it is not the code's usual one */
  http?: number;
}

const e = (code: ErrorEntry['code'], template: string, when: string, http?: number): ErrorEntry => ({ code, template, when, ...(http ? { http } : {}) });

/**
 * Every error the proxy makes (the emulator has its own v1 errors). docs/errors.md lists the same
 * entries; test/house/error-registry.test.ts holds the two together both ways.
 */
export const ERRORS = {
  // request checks
  INVALID_FIELDS: e(
    GrpcCode.INVALID_ARGUMENT,
    '{violations}',
    'Fields of the request are invalid: each is named, with why, in a BadRequest field violation (all at once).',
  ),
  MALFORMED_REQUEST: e(
    GrpcCode.INVALID_ARGUMENT,
    'malformed request: {reason}',
    'The HTTP request cannot be parsed (unknown method, bad chunked body, NUL in a header, undecodable URL).',
  ),
  BAD_REQUEST: e(GrpcCode.INVALID_ARGUMENT, '{reason}', 'The web framework refused the request before the proxy saw it (a 4xx of its own).'),
  INVALID_JSON: e(GrpcCode.INVALID_ARGUMENT, 'request body is not valid JSON: {reason}', 'The body is not JSON.'),
  FORBIDDEN_KEY: e(GrpcCode.INVALID_ARGUMENT, 'request body holds a forbidden key (__proto__ or constructor.prototype)', 'The body tries prototype pollution.'),
  UNSUPPORTED_CONTENT_TYPE: e(
    GrpcCode.INVALID_ARGUMENT,
    'unsupported Content-Type: send application/json',
    'A body that is not JSON (or the token exchange form).',
  ),
  BODY_TOO_LARGE: e(GrpcCode.RESOURCE_EXHAUSTED, 'request body is larger than the configured limit', 'The body is over BODY_LIMIT.'),
  HEADERS_TOO_LARGE: e(GrpcCode.RESOURCE_EXHAUSTED, 'the request headers are too large', 'The headers are over 16 KB.', 431),
  REQUEST_TIMEOUT: e(
    GrpcCode.DEADLINE_EXCEEDED,
    'the request (headers and body) did not arrive in time',
    'Headers or body slower than HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS.',
    408,
  ),
  DOT_SEGMENT: e(
    GrpcCode.INVALID_ARGUMENT,
    'the path {path} has a dot segment (. or ..); send it resolved',
    'A v1 path with a `.` or `..` segment (plain or percent-encoded): refused, never passed on to v1.',
  ),
  NO_ROUTE: e(GrpcCode.NOT_FOUND, 'no route for {method} {path}', 'No v2, v1 or admin path matches.'),
  METHOD_NOT_ALLOWED: e(
    GrpcCode.UNIMPLEMENTED,
    '{method} is not a method of {path}',
    'The path exists but not with this method; REST answers carry `Allow` with the methods it serves.',
  ),
  METHOD_UNSUPPORTED: e(
    GrpcCode.UNIMPLEMENTED,
    '{reason}',
    'The v2 operation exists but the resource mapping says why the proxy cannot serve it over v1; REST answers carry `Allow` with the methods the path serves.',
  ),
  VERB_NOT_SERVED: e(GrpcCode.UNIMPLEMENTED, '{resource}:{verb} is not served by the proxy', 'A custom method (`:verb`) the proxy does not implement.'),
  IDEMPOTENCY_BUSY: e(
    GrpcCode.ABORTED,
    'the first request with this Idempotency-Key is still running; retry later',
    'A create with an Idempotency-Key whose first request has run for over 30 s.',
  ),
  NO_CREDENTIALS: e(
    GrpcCode.UNAUTHENTICATED,
    'missing bearer token',
    'A v2 request with no Authorization: refused before its input is checked, as the service does (translated: v1 is not asked).',
  ),
  // resources
  NOT_FOUND: e(GrpcCode.NOT_FOUND, '{resource}/{uid}', 'The resource does not exist, or v1 does not show it to the caller.'),
  PRECONDITION_FAILED: e(
    GrpcCode.FAILED_PRECONDITION,
    '{description}',
    'The operation is refused in the state the resource is in (a PreconditionFailure says which).',
  ),
  RECORD_TOO_DEEP: e(
    GrpcCode.FAILED_PRECONDITION,
    '{field} is stored nested deeper than {limit} levels; include {field} in this PATCH with a shallower value',
    'A PATCH leaves alone a field v1 holds nested too deep.',
  ),
  WRITE_BUSY: e(GrpcCode.ABORTED, '{resource} is being changed by another request; retry', 'The Redis write lock of the resource stayed taken for 30 s.'),
  WRITE_LOCK_LOST: e(
    GrpcCode.ABORTED,
    '{resource}: the write lock was lost before writing; nothing was written, retry',
    'The write lock expired (or moved) before the v1 write: nothing was written.',
  ),
  // the v1 backend
  V1_REFUSED: e('v1', '{message}', "v1 refused the call: its code and its text (in v2 words), with a field violation when v1's text names a field."),
  V1_NO_STATUS_BODY: e(
    GrpcCode.UNAVAILABLE,
    'the v1 backend answered HTTP {status} without a status body',
    'v1 answered an error that is not a gateway status.',
  ),
  V1_ANSWER_NOT_JSON: e(GrpcCode.UNAVAILABLE, 'the v1 backend sent a body that is not JSON (HTTP {status})', 'v1 answered something that is not JSON.'),
  V1_ANSWER_TOO_DEEP: e(
    GrpcCode.FAILED_PRECONDITION,
    'a stored record nests deeper than {limit} levels; PATCH its deep field with a shallower value (HTTP {status} from the v1 backend)',
    'v1 answered JSON nested deeper than 128 levels.',
  ),
  V1_MALFORMED_LIST: e(GrpcCode.UNAVAILABLE, 'the v1 backend sent a malformed {resource} list', 'A v1 list answer without an items array of keyed objects.'),
  V1_MALFORMED_WRITE: e(
    GrpcCode.UNAVAILABLE,
    'the v1 backend sent a malformed {resource} {operation} answer',
    'A v1 create or update answer that is not an object.',
  ),
  V1_ENDLESS_PAGING: e(GrpcCode.UNAVAILABLE, 'the v1 backend kept paging {resource} past {limit} pages', 'A paged v1 list that never ends.'),
  V1_NOT_READY: e(GrpcCode.UNAVAILABLE, 'the v1 backend does not answer ({reason})', '`/readyz` while v1 does not answer.'),
  ISSUER_NO_TOKEN: e(GrpcCode.UNAVAILABLE, 'the token issuer sent an answer without a token', 'The v1 token issuer answered the exchange without a token.'),
  // any backend (v1, the token issuer, the native v2 backend)
  BACKEND_UNREACHABLE: e(GrpcCode.UNAVAILABLE, '{backend} is unreachable', 'No connection (refused, reset) after the retries reads get.'),
  BACKEND_HANGS: e(GrpcCode.UNAVAILABLE, '{backend} does not answer ({reason})', 'An attempt did not start answering within V1_ATTEMPT_TIMEOUT_MS.'),
  BACKEND_CIRCUIT_OPEN: e(
    GrpcCode.UNAVAILABLE,
    '{backend} is failing; calls are paused for a moment (circuit open)',
    'Half of the recent calls failed: calls fail at once until a trial call is answered.',
  ),
  BACKEND_ANSWER_TOO_LARGE: e(
    GrpcCode.UNAVAILABLE,
    '{backend} sent more than {limit} bytes',
    'An answer over V1_MAX_RESPONSE_BYTES (V2_MAX_RESPONSE_BYTES for the native backend).',
  ),
  BACKEND_TIMEOUT: e(GrpcCode.DEADLINE_EXCEEDED, '{backend} did not answer in time', 'A call ran past V1_TIMEOUT_MS (V2_TIMEOUT_MS for the native backend).'),
  // the shared state store
  STATE_STORE_UNAVAILABLE: e(
    GrpcCode.UNAVAILABLE,
    'the shared state store (Redis) does not answer ({reason}); retry',
    'Redis is down, or slower than REDIS_TIMEOUT_MS, for a request that needs it (a write lock, an Idempotency-Key, times with META_STORE=redis, an admin command that changes the fleet: the kill switch, a route command, a reload, a diff reset); what was answered so did not apply and never will: retry it. Also `/readyz` while Redis is unreachable.',
  ),
  COMMAND_OUTCOME_UNKNOWN: e(
    GrpcCode.DEADLINE_EXCEEDED,
    'Redis did not say in time whether the change applied; it cannot apply after {until}: read the state (GET /admin/rollout), or repeat the command with the same Idempotency-Key to get its outcome',
    'An admin command whose write Redis took but did not answer (it stalled or dropped the connection right then), and would not tell for 5 s after: the write is fenced, so it applied before the time named or never.',
  ),
  // the request's own life
  REQUEST_CANCELLED: e(
    GrpcCode.CANCELLED,
    'the client cancelled the request',
    'The client closed its connection or reset its stream before the answer (in the middle of its message too): its reads under way stop, no call starts after, and it is counted and logged as cancelled, against neither side (nobody reads the answer).',
  ),
  CLIENT_DEADLINE_EXCEEDED: e(
    GrpcCode.DEADLINE_EXCEEDED,
    'the deadline the client set (grpc-timeout) passed',
    "A gRPC, gRPC-Web or Connect call's own deadline (grpc-timeout, connect-timeout-ms) passed before its answer: answered then, whichever side serves it; its reads under way stop (a write already sent finishes), counted as a deadline, against neither side.",
  ),
  SHUTTING_DOWN: e(
    GrpcCode.UNAVAILABLE,
    'the proxy is shutting down; retry',
    '`/readyz` from SIGTERM or SIGINT on; and a request still running when SHUTDOWN_TIMEOUT_MS runs out (its v1 and native calls stop).',
  ),
  // admin API
  ADMIN_TOKEN_MISSING: e(GrpcCode.UNAUTHENTICATED, "the admin API needs Authorization: Bearer <an operator's token>", 'An admin call without credentials.'),
  ADMIN_TOKEN_INVALID: e(GrpcCode.UNAUTHENTICATED, 'the admin token is not valid', "An admin call with a token that is no operator's."),
  ADMIN_ROLE_REQUIRED: e(
    GrpcCode.PERMISSION_DENIED,
    '{name} has the {role} role; this needs the {needed} role',
    "An operator's call their role does not allow (a viewer's change, an operator's promote or retry); checked before anything else is.",
  ),
  ADMIN_API_OFF: e(
    GrpcCode.NOT_FOUND,
    'the admin API is off: no operator is configured (ADMIN_TOKEN, ADMIN_TOKENS or ADMIN_TOKENS_FILE)',
    '`serve` with REDIS_URL and no operator configured: no replica invents a token of its own.',
  ),
  ROLLOUT_FILE_REFUSED: e(
    GrpcCode.FAILED_PRECONDITION,
    'the rollout file was refused, the last good configuration stays in force: {reason}',
    'A reload found the rollout file invalid.',
  ),
  ADMIN_CROSS_ORIGIN: e(
    GrpcCode.PERMISSION_DENIED,
    'an admin change must come from the admin pages themselves (same origin)',
    'A POST to /admin/* whose Origin (or Sec-Fetch-Site) says another site sent it: a cross-site request forgery is refused.',
  ),
  ROLLOUT_ROUTE_NOT_FOUND: e(GrpcCode.NOT_FOUND, '{reason}', 'A progressive rollout command names a route the rollout file does not have.'),
  CONTROL_STATE_CHANGED: e(
    GrpcCode.ABORTED,
    'the control state changed since it was read: {reason}; read it again and decide on the new state',
    "An admin command whose If-Match (the status's controlVersion) or fromStep names a state that is gone: nothing applied; the current version and the route's state are in the ErrorInfo.",
  ),
  ROLLOUT_TRANSITION_REFUSED: e(
    GrpcCode.FAILED_PRECONDITION,
    'the route cannot {action} now: {reason}',
    "A progressive rollout command the route's state does not allow (promote an aborted route, retry one that is not aborted), or a route with a fixed share.",
    409,
  ),
  // the proxy itself
  INTERNAL: e(GrpcCode.INTERNAL, 'the proxy failed to handle the request', 'A bug: logged at error level with the request id.'),
} as const satisfies Record<string, ErrorEntry>;

export type ErrorName = keyof typeof ERRORS;

/** The HTTP status an entry answers with. */
export function httpStatusOfEntry(name: ErrorName): number {
  const entry: ErrorEntry = ERRORS[name];
  return entry.http ?? (entry.code === 'v1' ? 500 : httpStatusOf(entry.code));
}

/** The message of an entry with its parameters filled in. */
export function errorMessage(name: ErrorName, params: Readonly<Record<string, string | number>> = {}): string {
  return ERRORS[name].template.replace(/\{([a-zA-Z]+)\}/g, (_, key: string) => String(params[key] ?? `{${key}}`));
}

/** The one way the proxy makes an error: a registry entry and its parameters (and, for V1_REFUSED, v1's code). */
export function apiError(
  name: ErrorName,
  params: Readonly<Record<string, string | number>> = {},
  details: ApiErrorDetails = {},
  v1Code?: GrpcCodeNumber,
): ApiError {
  const entry: ErrorEntry = ERRORS[name];
  const code = entry.code === 'v1' ? (v1Code ?? GrpcCode.UNKNOWN) : entry.code;
  return new ApiError(code, errorMessage(name, params), details, name);
}

/** INVALID_FIELDS: every failed field at once, as text and as BadRequest field violations. */
export function invalidFields(violations: FieldViolation[]): ApiError {
  return apiError('INVALID_FIELDS', { violations: violations.map((v) => `${v.field}: ${v.description}`).join('; ') }, { fieldViolations: violations });
}

/** NOT_FOUND of a resource's uid, with both in its ErrorInfo. */
export function resourceNotFound(resource: string, uid: string): ApiError {
  return apiError('NOT_FOUND', { resource, uid }, { metadata: { resource, uid } });
}

/** PRECONDITION_FAILED with its PreconditionFailure violation. */
export function preconditionFailed(violation: PreconditionViolation): ApiError {
  return apiError('PRECONDITION_FAILED', { description: violation.description }, { preconditionViolations: [violation] });
}
