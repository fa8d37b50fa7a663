import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { AdminOperators } from '../auth/admin-operators.js';
import {
  type CamelKeys,
  camelName,
  type EmulatorSettings,
  EmulatorSettingsSchema,
  ProxySettingsSchema,
  type ResolvedSettings,
  type Settings,
} from './settings-schema.js';

export type Loaded<T> = { ok: true; settings: T } | { ok: false; error: string };
export type SettingsResult = Loaded<Settings>;

type AnySchema = z.ZodObject<z.ZodRawShape>;

// a CONFIG file may hold the settings of either program (one file for the demo's proxy and emulator)
const KNOWN = new Set([...Object.keys(ProxySettingsSchema.shape), ...Object.keys(EmulatorSettingsSchema.shape)]);

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
  const unknown = Object.keys(parsed).find((k) => !KNOWN.has(k));
  if (unknown !== undefined) return { ok: false, error: `CONFIG: ${path}: unknown setting "${unknown}"` };
  return { ok: true, values: parsed as Record<string, unknown> };
}

/** The camelCase object of parsed settings (`V1_TIMEOUT_MS` → `v1TimeoutMs`). */
function camelKeys<T extends Record<string, unknown>>(parsed: T): CamelKeys<T> {
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [camelName(k), v])) as CamelKeys<T>;
}

/**
 * Reads one program's settings from the environment and the optional CONFIG file. Never throws:
 * every bad value comes back in one line, each naming its variable and the rule.
 */
function load<S extends AnySchema>(
  schema: S,
  env: NodeJS.ProcessEnv,
  crossCheck: (input: Record<string, unknown>, parsed: z.output<S> | undefined) => string[] = () => [],
): Loaded<CamelKeys<z.output<S>>> {
  let fileValues: Record<string, unknown> = {};
  const configPath = env.CONFIG?.trim();
  if (configPath) {
    const file = readConfigFile(configPath);
    if (!file.ok) return file;
    fileValues = file.values;
  }
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(schema.shape)) {
    const fromEnv = env[key];
    const value = fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv : fileValues[key];
    if (value !== undefined && value !== '') input[key] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  }
  const result = schema.safeParse(input);
  // every problem at once, so one start names them all
  const problems = result.success ? [] : result.error.issues.map((issue) => `${String(issue.path[0] ?? 'settings')}: ${issue.message}`);
  problems.push(...crossCheck(input, result.success ? result.data : undefined));
  if (!result.success || problems.length > 0) return { ok: false, error: problems.join('; ') };
  return { ok: true, settings: camelKeys(result.data as Record<string, unknown>) as CamelKeys<z.output<S>> };
}

/** The proxy's settings (`serve`, `demo`). */
export function loadSettings(env: NodeJS.ProcessEnv): SettingsResult {
  return load(ProxySettingsSchema, env, (input, parsed) => {
    const problems: string[] = [];
    const given = (key: string) => input[key] !== undefined;
    if (given('TLS_CERT_FILE') !== given('TLS_KEY_FILE')) problems.push('TLS_CERT_FILE: TLS_CERT_FILE and TLS_KEY_FILE go together');
    if (input.META_STORE === 'redis' && !given('REDIS_URL')) problems.push('META_STORE: redis needs REDIS_URL');
    if (parsed && parsed.SHUTDOWN_DELAY_MS >= parsed.SHUTDOWN_TIMEOUT_MS) problems.push('SHUTDOWN_DELAY_MS: must be less than SHUTDOWN_TIMEOUT_MS');
    if (given('ADMIN_HOST') && !given('ADMIN_PORT')) problems.push('ADMIN_HOST: goes with ADMIN_PORT');
    if (parsed && (parsed.ADMIN_TOKENS !== undefined || parsed.ADMIN_TOKENS_FILE !== undefined)) {
      const operators = AdminOperators.from({ adminToken: parsed.ADMIN_TOKEN, adminTokens: parsed.ADMIN_TOKENS, adminTokensFile: parsed.ADMIN_TOKENS_FILE });
      if (!operators.ok) problems.push(operators.error);
    }
    return problems;
  });
}

/** The emulator's settings (`emulator`, and the one `demo` embeds). */
export function loadEmulatorSettings(env: NodeJS.ProcessEnv): Loaded<EmulatorSettings> {
  return load(EmulatorSettingsSchema, env);
}

/** Whether the settings name any operator of the admin surface. */
export function operatorsConfigured(s: Settings): boolean {
  return s.adminToken !== undefined || s.adminTokens !== undefined || s.adminTokensFile !== undefined;
}

/** A new random admin token (`serve` without a fleet, and `demo`, when no operator is configured). */
export function newAdminToken(): string {
  return `adm-${randomBytes(24).toString('base64url')}`;
}

/**
 * Fills the defaults that depend on where the v1 backend and the proxy ended up, and on other
 * settings. `adminToken`: one made for this process (the settings' own wins).
 */
export function resolveSettings(s: Settings, v1BaseUrl: string, listenPort: number, v2BaseUrl?: string, adminToken?: string): ResolvedSettings {
  const host = s.host.includes(':') ? `[${s.host}]` : s.host;
  return {
    ...s,
    v2BaseUrl: s.v2BaseUrl ?? v2BaseUrl,
    adminToken: s.adminToken ?? adminToken,
    v1BaseUrl,
    v1IssuerUrl: s.v1IssuerUrl ?? v1BaseUrl,
    v1Audience: s.v1Audience ?? v1BaseUrl,
    v1IssuerTimeoutMs: s.v1IssuerTimeoutMs ?? s.v1TimeoutMs,
    v1IssuerAttemptTimeoutMs: s.v1IssuerAttemptTimeoutMs ?? s.v1AttemptTimeoutMs,
    v2TimeoutMs: s.v2TimeoutMs ?? s.v1TimeoutMs,
    v2AttemptTimeoutMs: s.v2AttemptTimeoutMs ?? s.v1AttemptTimeoutMs,
    v2Retries: s.v2Retries ?? s.v1Retries,
    v2BreakerOpenMs: s.v2BreakerOpenMs ?? s.v1BreakerOpenMs,
    v2MaxResponseBytes: s.v2MaxResponseBytes ?? s.v1MaxResponseBytes,
    warnings: nativeFallbackWarnings({ ...s, v2BaseUrl: s.v2BaseUrl ?? v2BaseUrl }),
    publicUrl: s.publicUrl ?? `${s.tlsCertFile ? 'https' : 'http'}://${host}:${listenPort}`,
  };
}

/** Each setting of a schema, for `--help` and the docs: its name, its default as text (or undefined), what it does. */
export function describeSettings(schema: AnySchema = ProxySettingsSchema): Array<{ name: string; default: string | undefined; description: string }> {
  const defaults = schema.parse({}) as Record<string, unknown>;
  return Object.entries(schema.shape).map(([name, field]) => {
    const value = defaults[name];
    const shown = value === undefined || (Array.isArray(value) && value.length === 0) || value === '' ? undefined : String(value);
    return { name, default: shown, description: (field as { description?: string }).description ?? '' };
  });
}

/** The native backend's settings, each with the v1 setting it falls back to. */
const NATIVE_FALLBACKS = [
  ['V2_TIMEOUT_MS', 'V1_TIMEOUT_MS', 'v2TimeoutMs', 'v1TimeoutMs'],
  ['V2_ATTEMPT_TIMEOUT_MS', 'V1_ATTEMPT_TIMEOUT_MS', 'v2AttemptTimeoutMs', 'v1AttemptTimeoutMs'],
  ['V2_RETRIES', 'V1_RETRIES', 'v2Retries', 'v1Retries'],
  ['V2_BREAKER_OPEN_MS', 'V1_BREAKER_OPEN_MS', 'v2BreakerOpenMs', 'v1BreakerOpenMs'],
  ['V2_MAX_RESPONSE_BYTES', 'V1_MAX_RESPONSE_BYTES', 'v2MaxResponseBytes', 'v1MaxResponseBytes'],
] as const;

/**
 * With a native backend: each v1 setting given a value of its own that also governs the native
 * backend, because its V2_* setting is unset, in a warning naming the setting to use. A v1 setting
 * left at its default says nothing (both backends share the default).
 */
export function nativeFallbackWarnings(s: Settings): string[] {
  if (s.v2BaseUrl === undefined) return [];
  const defaults = ProxySettingsSchema.parse({}) as Record<string, unknown>;
  const given = s as unknown as Record<string, unknown>;
  return NATIVE_FALLBACKS.filter(([, v1Name, v2Key, v1Key]) => given[v2Key] === undefined && given[v1Key] !== defaults[v1Name]).map(
    ([v2Name, v1Name, , v1Key]) =>
      `${v1Name}=${String(given[v1Key])} also governs the native v2 backend, ${v2Name} being unset: set ${v2Name} to give the native backend its own value`,
  );
}
