import { z } from 'zod';
import { OTLP_PROTOCOLS, SAMPLERS } from '../telemetry/start-tracing.js';

const text = z.string().trim();
const port = () =>
  z.coerce
    .number({ error: `must be a port number (0-65535)` })
    .int({ error: `must be a whole number` })
    .min(0, { error: `must be a port number (0-65535)` })
    .max(65535, { error: `must be a port number (0-65535)` });
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).transform((u) => u.replace(/\/+$/, ''));
const positiveInt = (max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(max, { error: `must be at most ${max}` });

/** 0 to `max`. */
const wholeNumber = (max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must not be negative' })
    .max(max, { error: `must be at most ${max}` });

/** Any number from `min` to `max` (a share, a percentage). */
const numberFrom = (min: number, max: number) => {
  const error = `must be a number from ${min} to ${max}`;
  return z.coerce.number({ error }).min(min, { error }).max(max, { error });
};

const bool = () =>
  z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .pipe(z.boolean());

/** A cache lifetime in milliseconds: 0 (no reuse) to ten minutes, 5 s by default. */
const cacheTtlMs = () => wholeNumber(600_000).default(5_000);

/**
 * The proxy's settings (`serve`, `demo`), by their environment variable names: the one source of
 * their types (camelCase, see `CamelKeys`), their checks, `--help` and docs/configuration.md. Values
 * come from the environment, or from the JSON file named by CONFIG (the environment wins); empty
 * values count as unset.
 */
export const ProxySettingsSchema = z.object({
  HOST: text.min(1).default('127.0.0.1').describe('address the proxy listens on'),
  PORT: port().default(8080).describe('port the proxy listens on'),
  PUBLIC_URL: httpUrl.optional().describe('URL clients use to reach the proxy (unset: `http://HOST:PORT`)'),
  TLS_CERT_FILE: text
    .min(1)
    .optional()
    .describe(
      'PEM certificate: the port speaks TLS, ALPN offering `h2` (gRPC, REST) and `http/1.1` (REST); unset: cleartext HTTP/1.1 and h2c (needs TLS_KEY_FILE)',
    ),
  TLS_KEY_FILE: text.min(1).optional().describe('PEM private key of TLS_CERT_FILE'),
  V1_BASE_URL: httpUrl.optional().describe('the v1 backend (`serve` needs it; `demo` sets it to its embedded emulator)'),
  V1_ISSUER_URL: httpUrl.optional().describe('the v1 token issuer (STS) (unset: V1_BASE_URL)'),
  V1_AUDIENCE: text.min(1).optional().describe('audience of v1 API tokens (unset: V1_BASE_URL)'),
  V1_TIMEOUT_MS: positiveInt(600_000).default(10_000).describe('deadline of one v1 call, retries included, in milliseconds (past it: 504 code 4)'),
  V1_ATTEMPT_TIMEOUT_MS: positiveInt(600_000)
    .default(600)
    .describe(
      'one attempt at a v1 call must start answering within this time, in milliseconds, or it fails as 503 code 14: a hung v1 is found out fast (raise it for a v1 slower than that to start a large answer)',
    ),
  V1_RETRIES: wholeNumber(10)
    .default(5)
    .describe(
      'retries of a v1 read (GET) after a connection failure or 502/503/504, with jittered backoff, within V1_TIMEOUT_MS and a retry budget; writes are never retried',
    ),
  V1_BREAKER_OPEN_MS: positiveInt(60_000)
    .default(250)
    .describe(
      'while a backend circuit is open (half of at least 40 attempts in the last 2 s failed), calls fail at once and one trial call goes out this often, in milliseconds',
    ),
  V1_ISSUER_TIMEOUT_MS: positiveInt(600_000).optional().describe('deadline of one call to the token issuer, in milliseconds (unset: V1_TIMEOUT_MS)'),
  V1_ISSUER_ATTEMPT_TIMEOUT_MS: positiveInt(600_000)
    .optional()
    .describe('one attempt at a token issuer call must start answering within this time, in milliseconds (unset: V1_ATTEMPT_TIMEOUT_MS)'),
  V1_MAX_RESPONSE_BYTES: positiveInt(2 ** 31)
    .default(256 * 1024 * 1024)
    .describe('largest answer read from a backend, in bytes (larger: 503)'),
  BODY_LIMIT: positiveInt(64 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('largest request body (or gRPC message) accepted, in bytes'),
  REQUEST_TIMEOUT_MS: positiveInt(600_000)
    .default(30_000)
    .describe(
      'a request (head and body) must arrive within this time, in milliseconds, or it is answered 408 (code 4) and closed; a gRPC call whose message has not ended by then ends DEADLINE_EXCEEDED',
    ),
  HEADERS_TIMEOUT_MS: positiveInt(600_000)
    .default(10_000)
    .describe(
      'the request head must arrive within this time, in milliseconds (at most REQUEST_TIMEOUT_MS), or 408; a connection that sends nothing (a TCP health check, a stalled client), an HTTP/2 connection without a first stream and a TLS connection without a handshake are closed after it',
    ),
  IDLE_TIMEOUT_MS: positiveInt(600_000)
    .default(72_000)
    .describe(
      "a kept-alive HTTP/1.1 connection, or an HTTP/2 session with no open stream, is closed after this long idle, in milliseconds; keep it above the load balancer's idle timeout (60 s on an AWS ALB)",
    ),
  MAX_CONNECTIONS: positiveInt(1_000_000)
    .default(10_000)
    .describe(
      "open client connections at most; more are closed as they come and counted in v2proxy_connections_refused_total; keep it below the process's open-file limit (the proxy warns at start when it is not)",
    ),
  HTTP2_MAX_STREAMS: positiveInt(10_000).default(100).describe('concurrent streams per HTTP/2 connection (h2c and TLS), advertised to the client'),
  SHUTDOWN_DELAY_MS: wholeNumber(600_000)
    .default(5_000)
    .describe(
      'on SIGTERM or SIGINT, /readyz answers 503 at once while everything else is still served this long, in milliseconds, for load balancers to notice',
    ),
  SHUTDOWN_TIMEOUT_MS: positiveInt(3_600_000)
    .default(25_000)
    .describe(
      'from the signal, in-flight requests (REST, gRPC, shadows) have until this to finish, in milliseconds; what is left is answered 503 code 14 and the process exits (keep it below the grace period)',
    ),
  PAGE_TOKEN_SECRET: text
    .min(16, { error: 'must be at least 16 characters' })
    .optional()
    .describe('seals page tokens; set it so tokens survive restarts and work across replicas (16+ characters; unset: random per process, with a warning)'),
  LIST_CACHE_TTL_MS: cacheTtlMs().describe("how long a caller's list snapshot is reused, in milliseconds (0: read v1 again for every page)"),
  LIST_CACHE_MAX_BYTES: positiveInt(2 ** 34)
    .default(256 * 1024 * 1024)
    .describe('memory bound of all list snapshots together, in bytes'),
  LIST_REAUTH_MS: wholeNumber(1_000)
    .default(500)
    .describe(
      "a page served from a kept list snapshot first re-checks the caller's access with one small v1 read when the last check is older than this, in milliseconds (0: every page)",
    ),
  LOOKUP_CACHE_TTL_MS: cacheTtlMs().describe(
    "how long a caller's role-binding identity lookups are reused, in milliseconds (0: look up every time; concurrent ones still share a call)",
  ),
  META_STORE: text
    .regex(/^(memory|redis|file:.+)$/, { error: 'must be memory, redis or file:<path>' })
    .default('memory')
    .describe(
      'where synthesized createTime/updateTime live: `memory`, `file:<path>` (an append-only journal that survives restarts and crashes), or `redis` (on REDIS_URL, shared by replicas)',
    ),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
    .optional()
    .describe(
      'Redis the replicas share: per-resource write locks and Idempotency-Key records (and synthesized times with META_STORE=redis); connected in the background (a replica starts, not ready, while Redis is away), never printed',
    ),
  REDIS_TIMEOUT_MS: positiveInt(60_000)
    .default(500)
    .describe(
      'a Redis command not answered within this time, in milliseconds, fails the request that needs it with 503 code 14 (retryable); while Redis is unreachable such requests fail at once, except a read of synthesized times, which waits this long for the connection to come back (and is served the times this replica last had, where it has them all)',
    ),
  REDIS_LEASE_MS: positiveInt(600_000)
    .default(5_000)
    .describe(
      "how long a write lock or an Idempotency-Key claim on Redis lasts unless its holder renews it (it does, a third of the way through), in milliseconds: after a replica dies or a Redis stall, a resource's next write waits at most this long",
    ),
  V2_BASE_URL: httpUrl
    .optional()
    .describe("the native v2 backend a rollout sends traffic to (`demo`: the emulator's native surface; unset: no native backend, everything translated)"),
  V2_TIMEOUT_MS: positiveInt(600_000).optional().describe('deadline of one native v2 call, in milliseconds (unset: V1_TIMEOUT_MS)'),
  V2_ATTEMPT_TIMEOUT_MS: positiveInt(600_000)
    .optional()
    .describe('one attempt at a native v2 call must start answering within this time, in milliseconds (unset: V1_ATTEMPT_TIMEOUT_MS)'),
  V2_RETRIES: wholeNumber(10)
    .optional()
    .describe(
      'retries of a native v2 read after a connection failure or 502/503/504 (gRPC: UNAVAILABLE), within V2_TIMEOUT_MS and its own retry budget (unset: V1_RETRIES)',
    ),
  V2_BREAKER_OPEN_MS: positiveInt(60_000)
    .optional()
    .describe("while the native v2 backend's circuit is open, one trial call goes out this often, in milliseconds (unset: V1_BREAKER_OPEN_MS)"),
  V2_MAX_RESPONSE_BYTES: positiveInt(2 ** 31)
    .optional()
    .describe('largest answer read from the native v2 backend, in bytes (larger: 503) (unset: V1_MAX_RESPONSE_BYTES)'),
  ROLLOUT_FILE: text
    .min(1)
    .optional()
    .describe(
      'YAML or JSON rollout file (routes to native v2, guard, kill switch), reloaded when it changes and on SIGHUP; unset: every v2 request translated',
    ),
  ROLLOUT_FILE_MAX_BYTES: positiveInt(64 * 1024 * 1024)
    .default(1024 * 1024)
    .describe(
      'the largest rollout file read, in bytes; only a regular file (after symlinks) is read, off the event loop and within 5 s: anything else (larger, a device, a FIFO, a directory, unreadable, slow) is refused by name and the last good configuration stays',
    ),
  ROLLOUT_WEBHOOK_URL: httpUrl
    .optional()
    .describe("a JSON POST for each state change and step of a progressive route, retried with backoff (5 attempts), never on a request's path; unset: none"),
  ROLLOUT_WEBHOOK_TIMEOUT_MS: positiveInt(60_000).default(5_000).describe('deadline of one webhook attempt, in milliseconds'),
  ADMIN_TOKEN: text
    .min(16, { error: 'must be at least 16 characters' })
    .optional()
    .describe(
      'the token of one operator named `admin` with every role (16+ characters); never printed when given. With no operator configured, `serve` without REDIS_URL makes one and prints it, `serve` with REDIS_URL turns the admin API off (each replica would invent its own), `demo` always makes one',
    ),
  ADMIN_TOKENS: text
    .min(1)
    .optional()
    .describe('named operators, comma-separated `name:role:token` (role: viewer, operator or admin; token 16+ characters without `,` or `:`); never printed'),
  ADMIN_TOKENS_FILE: text
    .min(1)
    .optional()
    .describe('a YAML or JSON file of named operators: `operators: [{name, role, token}]`, or `tokenSha256` (the hex SHA-256 of the token) instead of `token`'),
  ADMIN_PORT: port()
    .optional()
    .describe(
      'serve the console, the admin API, the diff report and /metrics on a listener of their own, on this port (0: a free one), and not on PORT (unset: on PORT)',
    ),
  ADMIN_HOST: text.min(1).optional().describe('address of the ADMIN_PORT listener (unset: HOST)'),
  ROLLOUT_OVERRIDE_SECRET: text
    .min(16, { error: 'must be at least 16 characters' })
    .optional()
    .describe(
      'the secret a request sends in `x-v2proxy-override-secret` for its `x-v2proxy-backend` override to be honoured (with `allowOverride: true` in the rollout file; 16+ characters); never logged. Unset: no request can force a side',
    ),
  SHADOW_MAX_INFLIGHT: positiveInt(10_000).default(32).describe('shadow reads running at once; beyond that a shadow is skipped and counted'),
  VERIFY_MAX_INFLIGHT: positiveInt(10_000)
    .default(32)
    .describe("write verifications running at once (a route's `verifyWrites`); beyond that a write is skipped and counted"),
  VERIFY_DELAY_MS: wholeNumber(60_000)
    .default(200)
    .describe('how long after a verified write answers (and between its retries) its resource is read back, in milliseconds'),
  VERIFY_RETRIES: wholeNumber(20)
    .default(3)
    .describe('how many more times a written resource that is still changing is read back before it is counted as unverified'),
  DIFF_SAMPLE_VALUES: bool().default(false).describe("keep the values of diff samples (false: a 12-hex hash of each side's value)"),
  RECORD_FILE: text.min(1).optional().describe('append each v2 read served as a JSON line {time, method, url, status, requestId} (for `v2proxy diff`)'),
  RECORD_SAMPLE: numberFrom(0, 100).default(100).describe('percent of v2 reads RECORD_FILE keeps'),
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl
    .optional()
    .describe(
      'OpenTelemetry: the OTLP/HTTP collector traces are exported to (`<it>/v1/traces`), in batches; unset (and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT unset): no tracing, no SDK loaded',
    ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl.optional().describe('OpenTelemetry: the full URL traces are exported to (wins over OTEL_EXPORTER_OTLP_ENDPOINT)'),
  OTEL_SERVICE_NAME: text.min(1).default('v2proxy').describe("OpenTelemetry: the spans' `service.name`"),
  OTEL_TRACES_SAMPLER: z
    .enum(SAMPLERS, { error: `must be one of ${SAMPLERS.join(', ')}` })
    .default('parentbased_always_on')
    .describe(`OpenTelemetry: which requests are traced: ${SAMPLERS.join(', ')} (parentbased: as the client's sampled flag says, when it sends a traceparent)`),
  OTEL_TRACES_SAMPLER_ARG: numberFrom(0, 1).default(1).describe('OpenTelemetry: the share of traces the traceidratio samplers keep, 0 to 1'),
  OTEL_BSP_SCHEDULE_DELAY: wholeNumber(600_000).default(5_000).describe('OpenTelemetry: how long finished spans wait to be exported together, in milliseconds'),
  OTEL_BSP_MAX_QUEUE_SIZE: wholeNumber(1_000_000)
    .default(2_048)
    .describe('OpenTelemetry: finished spans waiting for export at most; beyond that new ones are dropped and counted (v2proxy_trace_spans_dropped_total)'),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: wholeNumber(100_000).default(512).describe('OpenTelemetry: spans per export request'),
  OTEL_BSP_EXPORT_TIMEOUT: wholeNumber(600_000)
    .default(30_000)
    .describe('OpenTelemetry: how long one export may take, in milliseconds; a batch not taken by then is dropped'),
  OTEL_EXPORTER_OTLP_HEADERS: text
    .optional()
    .describe("OpenTelemetry: headers sent with every export, `key=value` pairs split by commas, values URL-encoded (a collector's API key); never printed"),
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(OTLP_PROTOCOLS, { error: `must be one of ${OTLP_PROTOCOLS.join(', ')} (OTLP over gRPC is not offered)` })
    .default('http/protobuf')
    .describe('OpenTelemetry: how spans are encoded for the collector: http/protobuf (smaller, cheaper) or http/json'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info')
    .describe('pino log level: fatal, error, warn, info, debug, trace or silent'),
});

/** The emulator's own settings (`emulator`, and the embedded one of `demo`). */
export const EmulatorSettingsSchema = z.object({
  SIM_HOST: text.min(1).default('127.0.0.1').describe('address the emulator listens on'),
  SIM_PORT: port().default(0).describe('port of the emulator (0: a free port)'),
  SIM_V2: bool().default(true).describe('whether the emulator also serves the native v2beta1 surface on its own port (false: a v1-only backend)'),
  SIM_V2_PORT: port().default(0).describe("port of the emulator's native v2 surface (0: a free port)"),
  SIM_SEED: text.min(1).optional().describe('JSON seed file for the emulator (unset: the demo organization)'),
  DEV_TOKEN: text
    .min(16, { error: 'must be at least 16 characters' })
    .optional()
    .describe("the emulator's superuser token (16+ characters; unset: random, printed at start); never printed when given"),
  SIM_TRUSTED_ISSUERS: text
    .default('')
    .transform((v, ctx) => {
      const issuers = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const issuer of issuers) {
        if (!z.url({ protocol: /^https?$/ }).safeParse(issuer).success) {
          ctx.addIssue({ code: 'custom', message: `"${issuer}" is not an http(s) URL` });
          return z.NEVER;
        }
      }
      return issuers;
    })
    .describe("comma-separated OIDC issuers the emulator's STS trusts (`http://127.0.0.1:…` allowed)"),
  LOG_LEVEL: ProxySettingsSchema.shape.LOG_LEVEL,
  SHUTDOWN_TIMEOUT_MS: ProxySettingsSchema.shape.SHUTDOWN_TIMEOUT_MS,
});

/** `V1_TIMEOUT_MS` → `v1TimeoutMs`: a setting's name in code. */
type Words<S extends string> = S extends `${infer Word}_${infer Rest}` ? [Word, ...Words<Rest>] : [S];
type Capitalized<W extends string[]> = W extends [infer F extends string, ...infer R extends string[]] ? `${Capitalize<Lowercase<F>>}${Capitalized<R>}` : '';
export type CamelName<S extends string> = Words<S> extends [infer F extends string, ...infer R extends string[]] ? `${Lowercase<F>}${Capitalized<R>}` : never;
export type CamelKeys<T> = { [K in keyof T as K extends string ? CamelName<K> : never]: T[K] };

export function camelName(name: string): string {
  return name.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The proxy's settings as the code reads them. */
export type Settings = CamelKeys<z.output<typeof ProxySettingsSchema>>;
/** The emulator's settings as the code reads them. */
export type EmulatorSettings = CamelKeys<z.output<typeof EmulatorSettingsSchema>>;

/** Settings once the v1 backend is known: the defaults that follow from others are filled in. */
export type ResolvedSettings = Settings & {
  publicUrl: string;
  v1BaseUrl: string;
  v1IssuerUrl: string;
  v1Audience: string;
  v1IssuerTimeoutMs: number;
  v1IssuerAttemptTimeoutMs: number;
  v2TimeoutMs: number;
  v2AttemptTimeoutMs: number;
  v2Retries: number;
  v2BreakerOpenMs: number;
  v2MaxResponseBytes: number;
  /** what the settings given should be told at start (a v1 setting that also governs the native backend) */
  warnings: readonly string[];
  /** ADMIN_TOKEN, or the one `serve` or `demo` made (undefined: none) */
  adminToken: string | undefined;
};
