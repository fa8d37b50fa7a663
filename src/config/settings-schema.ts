import { z } from 'zod';

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

/** A cache lifetime in milliseconds: 0 (no reuse) to ten minutes, 5 s by default. */
const cacheTtlMs = () => wholeNumber(600_000).default(5_000);

/**
 * Every setting, by its environment variable name. Values come from the environment, or from the JSON
 * file named by CONFIG (the environment wins). Empty values count as unset.
 */
export const SettingsSchema = z.object({
  HOST: text.min(1).default('127.0.0.1').describe('address the proxy listens on'),
  PORT: port().default(8080).describe('port the proxy listens on'),
  PUBLIC_URL: httpUrl.optional().describe('URL clients use to reach the proxy (default http://HOST:PORT)'),
  TLS_CERT_FILE: text.min(1).optional().describe('PEM certificate: the proxy listens with TLS, ALPN offering h2 (gRPC) and http/1.1 (needs TLS_KEY_FILE)'),
  TLS_KEY_FILE: text.min(1).optional().describe('PEM private key of TLS_CERT_FILE'),
  V1_BASE_URL: httpUrl.optional().describe('the v1 backend; unset = start the embedded v1 emulator'),
  V1_ISSUER_URL: httpUrl.optional().describe('the v1 token issuer (STS) (default V1_BASE_URL)'),
  V1_AUDIENCE: text.min(1).optional().describe('audience of v1 API tokens (default V1_BASE_URL)'),
  V1_TIMEOUT_MS: positiveInt(600_000).default(10_000).describe('timeout of one v1 call, in milliseconds'),
  V1_ATTEMPT_TIMEOUT_MS: positiveInt(600_000)
    .default(600)
    .describe('one attempt at a v1 call must start answering within this time, in milliseconds, or it fails as UNAVAILABLE: a hung v1 is found out fast'),
  V1_RETRIES: wholeNumber(10)
    .default(5)
    .describe('retries of a v1 read after a connection failure or 502/503/504 (jittered backoff, within V1_TIMEOUT_MS and a retry budget)'),
  V1_BREAKER_OPEN_MS: positiveInt(60_000)
    .default(250)
    .describe('while the v1 circuit is open (half of the attempts of the last 2 s failed), one trial call goes out this often, in milliseconds'),
  BODY_LIMIT: positiveInt(64 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('largest request body accepted, in bytes'),
  REQUEST_TIMEOUT_MS: positiveInt(600_000)
    .default(30_000)
    .describe('a request (headers and body) must arrive within this time, in milliseconds, or it is answered 408 and closed'),
  HEADERS_TIMEOUT_MS: positiveInt(600_000)
    .default(10_000)
    .describe('the request headers must arrive within this time, in milliseconds (at most REQUEST_TIMEOUT_MS)'),
  IDLE_TIMEOUT_MS: positiveInt(600_000)
    .default(72_000)
    .describe(
      'a kept-alive HTTP/1.1 connection, or an HTTP/2 session with no open stream, is closed after this many milliseconds idle (keep it above the load balancer idle timeout)',
    ),
  MAX_CONNECTIONS: positiveInt(1_000_000)
    .default(10_000)
    .describe('open client connections at most; more are closed as they come and counted in v2proxy_connections_refused_total'),
  HTTP2_MAX_STREAMS: positiveInt(10_000).default(100).describe('concurrent streams per HTTP/2 connection (h2c, TLS), advertised to the client'),
  SHUTDOWN_DELAY_MS: wholeNumber(600_000)
    .default(5_000)
    .describe('on SIGTERM or SIGINT, /readyz answers 503 at once and everything else is still served this long, in milliseconds, for load balancers to notice'),
  SHUTDOWN_TIMEOUT_MS: positiveInt(3_600_000)
    .default(25_000)
    .describe(
      'from the signal, in-flight requests (REST, gRPC, shadows) have until this, in milliseconds, to finish; what is left is answered 503 and the process exits (keep it below the grace period)',
    ),
  V1_MAX_RESPONSE_BYTES: positiveInt(2 ** 31)
    .default(256 * 1024 * 1024)
    .describe('largest v1 answer the proxy reads, in bytes'),
  PAGE_TOKEN_SECRET: text
    .min(16, { error: 'must be at least 16 characters' })
    .optional()
    .describe('secret that seals page tokens (default: random per process, with a warning)'),
  LIST_CACHE_TTL_MS: cacheTtlMs().describe("how long a caller's list snapshot is reused, in milliseconds (0 = no reuse)"),
  LIST_REAUTH_MS: wholeNumber(1_000)
    .default(500)
    .describe(
      "a page served from a kept list snapshot first re-checks the caller's access with one small v1 read when the last check is older than this, in milliseconds (0 = every page)",
    ),
  LOOKUP_CACHE_TTL_MS: cacheTtlMs().describe("how long a caller's role-binding identity lookups are reused, in milliseconds (0 = no reuse)"),
  META_STORE: text
    .regex(/^(memory|redis|file:.+)$/, { error: 'must be memory, redis or file:<path>' })
    .default('memory')
    .describe('where synthesized createTime/updateTime are kept: memory, file:<path> (survives restarts), or redis (REDIS_URL, shared by replicas)'),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
    .optional()
    .describe('Redis shared by replicas: per-resource write locks, idempotency keys, and (with META_STORE=redis) synthesized times'),
  REDIS_TIMEOUT_MS: positiveInt(60_000)
    .default(500)
    .describe('a Redis command not answered within this many milliseconds fails the request that needs it with 503 (retryable); a Redis down fails it at once'),
  LIST_CACHE_MAX_BYTES: positiveInt(2 ** 34)
    .default(256 * 1024 * 1024)
    .describe('memory bound of all list snapshots together, in bytes'),
  V2_BASE_URL: httpUrl
    .optional()
    .describe("the native v2 backend a rollout sends traffic to (default: the embedded emulator's native v2 surface, when it runs)"),
  V2_TIMEOUT_MS: positiveInt(600_000).default(10_000).describe('timeout of one native v2 call, in milliseconds'),
  ROLLOUT_FILE: text.min(1).optional().describe('YAML or JSON rollout file (routes to native v2, guard, kill switch); reloaded when it changes and on SIGHUP'),
  ADMIN_TOKEN: text.min(16, { error: 'must be at least 16 characters' }).optional().describe('bearer token of /admin/* (default: random, printed at start)'),
  SHADOW_MAX_INFLIGHT: positiveInt(10_000).default(32).describe('shadow reads running at once; beyond that a shadow is skipped and counted'),
  DIFF_SAMPLE_VALUES: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true')
    .describe('keep the values of diff samples (default: only short hashes)'),
  RECORD_FILE: text.min(1).optional().describe('append each v2 read served as a JSON line {time, method, url, status, requestId} (for `v2proxy diff`)'),
  RECORD_SAMPLE: z.coerce
    .number({ error: 'must be a number from 0 to 100' })
    .min(0, { error: 'must be a number from 0 to 100' })
    .max(100, { error: 'must be a number from 0 to 100' })
    .default(100)
    .describe('percent of v2 reads RECORD_FILE keeps'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info')
    .describe('pino log level'),
  SIM_HOST: text.min(1).default('127.0.0.1').describe('address the emulator listens on'),
  SIM_PORT: port().default(0).describe('port of the emulator (0 = a free port)'),
  SIM_V2: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('true')
    .transform((v) => v === 'true')
    .describe('whether the emulator also serves the native v2beta1 surface on its own port'),
  SIM_V2_PORT: port().default(0).describe("port of the emulator's native v2 surface (0 = a free port)"),
  SIM_SEED: text.min(1).optional().describe('JSON seed file for the emulator (default: the demo organization)'),
  DEV_TOKEN: text
    .min(16, { error: 'must be at least 16 characters' })
    .optional()
    .describe("the emulator's superuser token (default: random, printed at start)"),
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
    .describe("comma-separated OIDC issuers the emulator's STS trusts"),
});

export type RawSettings = z.input<typeof SettingsSchema>;
export type ParsedSettings = z.output<typeof SettingsSchema>;

export interface Settings {
  host: string;
  port: number;
  publicUrl: string | undefined;
  v1BaseUrl: string | undefined;
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  v1IssuerUrl: string | undefined;
  v1Audience: string | undefined;
  v1TimeoutMs: number;
  v1AttemptTimeoutMs: number;
  v1Retries: number;
  v1BreakerOpenMs: number;
  redisUrl: string | undefined;
  v1MaxResponseBytes: number;
  bodyLimit: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  maxConnections: number;
  http2MaxStreams: number;
  shutdownDelayMs: number;
  shutdownTimeoutMs: number;
  redisTimeoutMs: number;
  pageTokenSecret: string | undefined;
  listCacheTtlMs: number;
  listCacheMaxBytes: number;
  listReauthMs: number;
  lookupCacheTtlMs: number;
  metaStore: string;
  v2BaseUrl: string | undefined;
  v2TimeoutMs: number;
  rolloutFile: string | undefined;
  adminToken: string | undefined;
  shadowMaxInflight: number;
  diffSampleValues: boolean;
  recordFile: string | undefined;
  recordSample: number;
  logLevel: ParsedSettings['LOG_LEVEL'];
  sim: {
    host: string;
    port: number;
    v2: boolean;
    v2Port: number;
    seedFile: string | undefined;
    devToken: string | undefined;
    trustedIssuers: string[];
  };
}

/** Settings once the v1 backend is known: the defaults that follow from it are filled in. */
export interface ResolvedSettings extends Settings {
  publicUrl: string;
  v1BaseUrl: string;
  v1IssuerUrl: string;
  v1Audience: string;
  adminToken: string;
}
