import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type ParsedSettings, type ResolvedSettings, type Settings, SettingsSchema } from './settings-schema.js';

export type SettingsResult = { ok: true; settings: Settings } | { ok: false; error: string };

const KEYS = Object.keys(SettingsSchema.shape);

function readConfigFile(path: string): { ok: true; values: Record<string, unknown> } | { ok: false; error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return { ok: false, error: `CONFIG: cannot read ${path}: ${(err as Error).message}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, error: `CONFIG: ${path} must hold a JSON object of settings` };
  }
  const unknown = Object.keys(parsed).find((k) => !KEYS.includes(k));
  if (unknown !== undefined) return { ok: false, error: `CONFIG: ${path}: unknown setting "${unknown}"` };
  return { ok: true, values: parsed as Record<string, unknown> };
}

/**
 * Reads the settings from the environment and the optional CONFIG file. Never throws: a bad value
 * comes back as one line naming the variable and the rule.
 */
export function loadSettings(env: NodeJS.ProcessEnv): SettingsResult {
  let fileValues: Record<string, unknown> = {};
  const configPath = env.CONFIG?.trim();
  if (configPath) {
    const file = readConfigFile(configPath);
    if (!file.ok) return file;
    fileValues = file.values;
  }
  const input: Record<string, unknown> = {};
  for (const key of KEYS) {
    const fromEnv = env[key];
    const value = fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv : fileValues[key];
    if (value !== undefined && value !== '') input[key] = typeof value === 'number' ? String(value) : value;
  }
  const result = SettingsSchema.safeParse(input);
  // every problem at once, so one start names them all
  const problems = result.success ? [] : result.error.issues.map((issue) => `${String(issue.path[0] ?? 'settings')}: ${issue.message}`);
  const given = (key: string) => input[key] !== undefined;
  if (given('TLS_CERT_FILE') !== given('TLS_KEY_FILE')) problems.push('TLS_CERT_FILE: TLS_CERT_FILE and TLS_KEY_FILE go together');
  if (input.META_STORE === 'redis' && !given('REDIS_URL')) problems.push('META_STORE: redis needs REDIS_URL');
  if (result.success && result.data.SHUTDOWN_DELAY_MS >= result.data.SHUTDOWN_TIMEOUT_MS) {
    problems.push('SHUTDOWN_DELAY_MS: must be less than SHUTDOWN_TIMEOUT_MS');
  }
  if (!result.success || problems.length > 0) return { ok: false, error: problems.join('; ') };
  return { ok: true, settings: toSettings(result.data) };
}

function toSettings(p: ParsedSettings): Settings {
  return {
    host: p.HOST,
    port: p.PORT,
    publicUrl: p.PUBLIC_URL,
    v1BaseUrl: p.V1_BASE_URL,
    tlsCertFile: p.TLS_CERT_FILE,
    tlsKeyFile: p.TLS_KEY_FILE,
    v1IssuerUrl: p.V1_ISSUER_URL,
    v1Audience: p.V1_AUDIENCE,
    v1TimeoutMs: p.V1_TIMEOUT_MS,
    v1AttemptTimeoutMs: p.V1_ATTEMPT_TIMEOUT_MS,
    v1Retries: p.V1_RETRIES,
    v1BreakerOpenMs: p.V1_BREAKER_OPEN_MS,
    redisUrl: p.REDIS_URL,
    v1MaxResponseBytes: p.V1_MAX_RESPONSE_BYTES,
    bodyLimit: p.BODY_LIMIT,
    requestTimeoutMs: p.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: p.HEADERS_TIMEOUT_MS,
    idleTimeoutMs: p.IDLE_TIMEOUT_MS,
    maxConnections: p.MAX_CONNECTIONS,
    http2MaxStreams: p.HTTP2_MAX_STREAMS,
    shutdownDelayMs: p.SHUTDOWN_DELAY_MS,
    shutdownTimeoutMs: p.SHUTDOWN_TIMEOUT_MS,
    redisTimeoutMs: p.REDIS_TIMEOUT_MS,
    pageTokenSecret: p.PAGE_TOKEN_SECRET,
    listCacheTtlMs: p.LIST_CACHE_TTL_MS,
    listCacheMaxBytes: p.LIST_CACHE_MAX_BYTES,
    listReauthMs: p.LIST_REAUTH_MS,
    lookupCacheTtlMs: p.LOOKUP_CACHE_TTL_MS,
    metaStore: p.META_STORE,
    v2BaseUrl: p.V2_BASE_URL,
    v2TimeoutMs: p.V2_TIMEOUT_MS,
    rolloutFile: p.ROLLOUT_FILE,
    adminToken: p.ADMIN_TOKEN,
    shadowMaxInflight: p.SHADOW_MAX_INFLIGHT,
    diffSampleValues: p.DIFF_SAMPLE_VALUES,
    recordFile: p.RECORD_FILE,
    recordSample: p.RECORD_SAMPLE,
    logLevel: p.LOG_LEVEL,
    sim: {
      host: p.SIM_HOST,
      port: p.SIM_PORT,
      v2: p.SIM_V2,
      v2Port: p.SIM_V2_PORT,
      seedFile: p.SIM_SEED,
      devToken: p.DEV_TOKEN,
      trustedIssuers: p.SIM_TRUSTED_ISSUERS,
    },
  };
}

/** Fills the defaults that depend on where the v1 backend and the proxy ended up. */
export function resolveSettings(s: Settings, v1BaseUrl: string, listenPort: number, v2BaseUrl?: string, adminToken?: string): ResolvedSettings {
  const host = s.host.includes(':') ? `[${s.host}]` : s.host;
  return {
    ...s,
    v2BaseUrl: s.v2BaseUrl ?? v2BaseUrl,
    adminToken: s.adminToken ?? adminToken ?? `adm-${randomBytes(24).toString('base64url')}`,
    v1BaseUrl,
    v1IssuerUrl: s.v1IssuerUrl ?? v1BaseUrl,
    v1Audience: s.v1Audience ?? v1BaseUrl,
    publicUrl: s.publicUrl ?? `${s.tlsCertFile ? 'https' : 'http'}://${host}:${listenPort}`,
  };
}

/** The settings table for `--help`: name and description of each variable. */
export function describeSettings(): Array<[string, string]> {
  return KEYS.map((k) => [k, SettingsSchema.shape[k as keyof typeof SettingsSchema.shape].description ?? '']);
}
