import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEmulatorSettings, loadSettings, newAdminToken, resolveSettings } from '../../src/config/load-settings.js';
import { EmulatorSettingsSchema, ProxySettingsSchema } from '../../src/config/settings-schema.js';

describe('settings', () => {
  it('has the documented defaults, named in code as in the environment (V1_TIMEOUT_MS is v1TimeoutMs)', () => {
    const r = loadSettings({});
    expect(r).toEqual({
      ok: true,
      settings: {
        host: '127.0.0.1',
        port: 8080,
        publicUrl: undefined,
        v1BaseUrl: undefined,
        tlsCertFile: undefined,
        tlsKeyFile: undefined,
        v1IssuerUrl: undefined,
        v1Audience: undefined,
        v1TimeoutMs: 10_000,
        v1AttemptTimeoutMs: 600,
        v1Retries: 5,
        v1BreakerOpenMs: 250,
        v1IssuerTimeoutMs: undefined,
        v1IssuerAttemptTimeoutMs: undefined,
        redisUrl: undefined,
        redisTimeoutMs: 500,
        redisLeaseMs: 5_000,
        v1MaxResponseBytes: 268_435_456,
        pageTokenSecret: undefined,
        listCacheTtlMs: 5_000,
        listCacheMaxBytes: 268_435_456,
        listReauthMs: 500,
        lookupCacheTtlMs: 5_000,
        metaStore: 'memory',
        v2BaseUrl: undefined,
        v2TimeoutMs: undefined,
        v2AttemptTimeoutMs: undefined,
        v2Retries: undefined,
        v2BreakerOpenMs: undefined,
        v2MaxResponseBytes: undefined,
        rolloutFile: undefined,
        rolloutFileMaxBytes: 1_048_576,
        rolloutWebhookUrl: undefined,
        rolloutWebhookTimeoutMs: 5_000,
        adminToken: undefined,
        shadowMaxInflight: 32,
        verifyMaxInflight: 32,
        verifyDelayMs: 200,
        verifyRetries: 3,
        diffSampleValues: false,
        recordFile: undefined,
        recordSample: 100,
        otelExporterOtlpEndpoint: undefined,
        otelExporterOtlpTracesEndpoint: undefined,
        otelServiceName: 'v2proxy',
        otelTracesSampler: 'parentbased_always_on',
        otelTracesSamplerArg: 1,
        otelBspScheduleDelay: 5_000,
        otelBspMaxQueueSize: 2_048,
        otelBspMaxExportBatchSize: 512,
        otelBspExportTimeout: 30_000,
        otelExporterOtlpHeaders: undefined,
        otelExporterOtlpProtocol: 'http/protobuf',
        bodyLimit: 1_048_576,
        requestTimeoutMs: 30_000,
        headersTimeoutMs: 10_000,
        idleTimeoutMs: 72_000,
        maxConnections: 10_000,
        http2MaxStreams: 100,
        shutdownDelayMs: 5_000,
        shutdownTimeoutMs: 25_000,
        logLevel: 'info',
      },
    });
    expect(loadEmulatorSettings({})).toEqual({
      ok: true,
      settings: {
        simHost: '127.0.0.1',
        simPort: 0,
        simV2: true,
        simV2Port: 0,
        simSeed: undefined,
        devToken: undefined,
        simTrustedIssuers: [],
        logLevel: 'info',
        shutdownTimeoutMs: 25_000,
      },
    });
  });

  it('the native backend and the token issuer have timeouts of their own, the v1 ones unless set', () => {
    const plain = loadSettings({ V1_TIMEOUT_MS: '4000', V1_ATTEMPT_TIMEOUT_MS: '300' });
    if (!plain.ok) throw new Error(plain.error);
    expect(resolveSettings(plain.settings, 'http://v1', 1)).toMatchObject({
      v2TimeoutMs: 4000,
      v2AttemptTimeoutMs: 300,
      v1IssuerTimeoutMs: 4000,
      v1IssuerAttemptTimeoutMs: 300,
    });
    const own = loadSettings({ V2_TIMEOUT_MS: '9000', V2_ATTEMPT_TIMEOUT_MS: '2000', V1_ISSUER_TIMEOUT_MS: '7000', V1_ISSUER_ATTEMPT_TIMEOUT_MS: '1500' });
    if (!own.ok) throw new Error(own.error);
    expect(resolveSettings(own.settings, 'http://v1', 1)).toMatchObject({
      v1TimeoutMs: 10_000,
      v2TimeoutMs: 9000,
      v2AttemptTimeoutMs: 2000,
      v1IssuerTimeoutMs: 7000,
      v1IssuerAttemptTimeoutMs: 1500,
    });
  });

  it('the native backend has a policy of its own under V2_* names; a v1 setting that still governs it is said, naming the V2_* one', () => {
    const v1Only = loadSettings({ V2_BASE_URL: 'http://v2', V1_RETRIES: '2', V1_BREAKER_OPEN_MS: '900', V1_MAX_RESPONSE_BYTES: '5000', V1_TIMEOUT_MS: '4000' });
    if (!v1Only.ok) throw new Error(v1Only.error);
    const resolved = resolveSettings(v1Only.settings, 'http://v1', 1);
    expect(resolved).toMatchObject({ v2Retries: 2, v2BreakerOpenMs: 900, v2MaxResponseBytes: 5000, v2TimeoutMs: 4000 });
    expect(resolved.warnings).toEqual([
      'V1_TIMEOUT_MS=4000 also governs the native v2 backend, V2_TIMEOUT_MS being unset: set V2_TIMEOUT_MS to give the native backend its own value',
      'V1_RETRIES=2 also governs the native v2 backend, V2_RETRIES being unset: set V2_RETRIES to give the native backend its own value',
      'V1_BREAKER_OPEN_MS=900 also governs the native v2 backend, V2_BREAKER_OPEN_MS being unset: set V2_BREAKER_OPEN_MS to give the native backend its own value',
      'V1_MAX_RESPONSE_BYTES=5000 also governs the native v2 backend, V2_MAX_RESPONSE_BYTES being unset: set V2_MAX_RESPONSE_BYTES to give the native backend its own value',
    ]);
    const own = loadSettings({ V2_BASE_URL: 'http://v2', V1_RETRIES: '2', V2_RETRIES: '0', V2_BREAKER_OPEN_MS: '100', V2_MAX_RESPONSE_BYTES: '700' });
    if (!own.ok) throw new Error(own.error);
    const split = resolveSettings(own.settings, 'http://v1', 1);
    expect(split).toMatchObject({
      v1Retries: 2,
      v2Retries: 0,
      v1BreakerOpenMs: 250,
      v2BreakerOpenMs: 100,
      v1MaxResponseBytes: 268_435_456,
      v2MaxResponseBytes: 700,
    });
    expect(split.warnings).toEqual([]);
    // without a native backend, or with the v1 defaults, there is nothing to say
    const noNative = loadSettings({ V1_RETRIES: '2' });
    if (!noNative.ok) throw new Error(noNative.error);
    expect(resolveSettings(noNative.settings, 'http://v1', 1).warnings).toEqual([]);
    const defaults = loadSettings({ V2_BASE_URL: 'http://v2' });
    if (!defaults.ok) throw new Error(defaults.error);
    expect(resolveSettings(defaults.settings, 'http://v1', 1).warnings).toEqual([]);
    expect(loadSettings({ V2_RETRIES: '11' })).toMatchObject({ ok: false });
  });

  it('reads the rollout settings and refuses bad ones with one line', () => {
    const r = loadSettings({
      V2_BASE_URL: 'http://v2.example/',
      ROLLOUT_FILE: 'rollout.yaml',
      ADMIN_TOKEN: 'a'.repeat(16),
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.settings).toMatchObject({
      v2BaseUrl: 'http://v2.example',
      rolloutFile: 'rollout.yaml',
      adminToken: 'a'.repeat(16),
    });
    expect(loadEmulatorSettings({ SIM_V2: 'false', SIM_V2_PORT: '9001' })).toMatchObject({ ok: true, settings: { simV2: false, simV2Port: 9001 } });
    expect(loadSettings({ ADMIN_TOKEN: 'short' })).toEqual({ ok: false, error: 'ADMIN_TOKEN: must be at least 16 characters' });
    expect(loadEmulatorSettings({ SIM_V2: 'maybe' })).toEqual({ ok: false, error: 'SIM_V2: must be true or false' });
    expect(loadSettings({ V2_BASE_URL: 'ftp://x' })).toEqual({ ok: false, error: 'V2_BASE_URL: must be an http(s) URL' });
    // a made admin token is random; a given one wins over it; none is made unless asked for
    expect(resolveSettings(r.settings, 'http://v1', 1, undefined, newAdminToken()).adminToken).toBe('a'.repeat(16));
    const unset = loadSettings({});
    if (!unset.ok) throw new Error(unset.error);
    expect(resolveSettings(unset.settings, 'http://v1', 1).adminToken).toBeUndefined();
    const a = newAdminToken();
    expect(a).toMatch(/^adm-[\w-]{32}$/);
    expect(newAdminToken()).not.toBe(a);
    expect(loadSettings({ ADMIN_HOST: '0.0.0.0' })).toEqual({ ok: false, error: 'ADMIN_HOST: goes with ADMIN_PORT' });
    expect(loadSettings({ ROLLOUT_OVERRIDE_SECRET: 'short' })).toEqual({ ok: false, error: 'ROLLOUT_OVERRIDE_SECRET: must be at least 16 characters' });
  });

  it('derives the issuer, audience and public URL from the v1 base URL and the listen address', () => {
    const r = loadSettings({ V1_BASE_URL: 'http://v1.example:9000/', HOST: '0.0.0.0', PORT: '9999' });
    if (!r.ok) throw new Error(r.error);
    const resolved = resolveSettings(r.settings, r.settings.v1BaseUrl ?? '', 9999);
    expect(resolved).toMatchObject({
      v1BaseUrl: 'http://v1.example:9000',
      v1IssuerUrl: 'http://v1.example:9000',
      v1Audience: 'http://v1.example:9000',
      publicUrl: 'http://0.0.0.0:9999',
    });
    const explicit = loadSettings({ V1_BASE_URL: 'http://v1', V1_ISSUER_URL: 'http://sts', V1_AUDIENCE: 'aud', PUBLIC_URL: 'https://proxy.example' });
    if (!explicit.ok) throw new Error(explicit.error);
    expect(resolveSettings(explicit.settings, 'http://v1', 1)).toMatchObject({
      v1IssuerUrl: 'http://sts',
      v1Audience: 'aud',
      publicUrl: 'https://proxy.example',
    });
  });

  it('parses SIM_TRUSTED_ISSUERS as a comma-separated list of URLs', () => {
    const r = loadEmulatorSettings({ SIM_TRUSTED_ISSUERS: 'http://127.0.0.1:5556, https://token.actions.githubusercontent.com,' });
    expect(r.ok && r.settings.simTrustedIssuers).toEqual(['http://127.0.0.1:5556', 'https://token.actions.githubusercontent.com']);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT: must be a port number (0-65535)'],
    [{ PORT: '65536' }, 'PORT: must be a port number (0-65535)'],
    [{ PORT: '80.5' }, 'PORT: must be a whole number'],
    [{ V1_BASE_URL: 'ftp://x' }, 'V1_BASE_URL: must be an http(s) URL'],
    [{ V1_ISSUER_URL: 'not a url' }, 'V1_ISSUER_URL: must be an http(s) URL'],
    [{ PUBLIC_URL: 'x' }, 'PUBLIC_URL: must be an http(s) URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ V1_TIMEOUT_MS: '0' }, 'V1_TIMEOUT_MS: must be at least 1'],
    [{ BODY_LIMIT: 'lots' }, 'BODY_LIMIT: must be a whole number'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' }, 'OTEL_EXPORTER_OTLP_ENDPOINT: must be an http(s) URL'],
    [
      { OTEL_TRACES_SAMPLER: 'sometimes' },
      'OTEL_TRACES_SAMPLER: must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio',
    ],
    [{ OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1'],
  ])('refuses %o with one line naming the variable and the rule', (env, message) => {
    expect(loadSettings(env)).toEqual({ ok: false, error: message });
  });

  it.each([
    [{ SIM_PORT: '-1' }, 'SIM_PORT: must be a port number (0-65535)'],
    [{ DEV_TOKEN: 'short' }, 'DEV_TOKEN: must be at least 16 characters'],
    [{ SIM_TRUSTED_ISSUERS: 'http://ok,nope' }, 'SIM_TRUSTED_ISSUERS: "nope" is not an http(s) URL'],
  ])("refuses the emulator's %o the same way", (env, message) => {
    expect(loadEmulatorSettings(env)).toEqual({ ok: false, error: message });
  });

  it('keeps every setting to its own program: the proxy reads no SIM_*, the emulator none of the proxy', () => {
    expect(Object.keys(ProxySettingsSchema.shape).filter((k) => k.startsWith('SIM_') || k === 'DEV_TOKEN')).toEqual([]);
    expect(Object.keys(EmulatorSettingsSchema.shape).filter((k) => k.startsWith('V1_') || k.startsWith('V2_') || k === 'PORT')).toEqual([]);
  });

  it('names every invalid setting at once, cross-checks included, so one start finds them all', () => {
    const r = loadSettings({
      PORT: 'http',
      V1_TIMEOUT_MS: '0',
      LOG_LEVEL: 'loud',
      TLS_CERT_FILE: 'cert.pem',
      META_STORE: 'redis',
      MAX_CONNECTIONS: '0',
      HTTP2_MAX_STREAMS: 'many',
      REDIS_TIMEOUT_MS: '-5',
    });
    expect(r).toEqual({
      ok: false,
      error: [
        'PORT: must be a port number (0-65535)',
        'V1_TIMEOUT_MS: must be at least 1',
        'MAX_CONNECTIONS: must be at least 1',
        'HTTP2_MAX_STREAMS: must be a whole number',
        'REDIS_TIMEOUT_MS: must be at least 1',
        'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent',
        'TLS_CERT_FILE: TLS_CERT_FILE and TLS_KEY_FILE go together',
        'META_STORE: redis needs REDIS_URL',
      ].join('; '),
    });
    expect(loadSettings({ SHUTDOWN_DELAY_MS: '30000', SHUTDOWN_TIMEOUT_MS: '20000' })).toEqual({
      ok: false,
      error: 'SHUTDOWN_DELAY_MS: must be less than SHUTDOWN_TIMEOUT_MS',
    });
  });

  it('reads a CONFIG file, lets the environment win, and names a bad file or key', () => {
    const file = join(tmpdir(), `v2proxy-config-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ PORT: 7000, HOST: '0.0.0.0', LOG_LEVEL: 'debug' }));
    const r = loadSettings({ CONFIG: file, LOG_LEVEL: 'warn' });
    expect(r.ok && [r.settings.port, r.settings.host, r.settings.logLevel]).toEqual([7000, '0.0.0.0', 'warn']);
    writeFileSync(file, JSON.stringify({ PORTT: 1 }));
    expect(loadSettings({ CONFIG: file })).toEqual({ ok: false, error: `CONFIG: ${file}: unknown setting "PORTT"` });
    writeFileSync(file, JSON.stringify({ PORT: 'x' }));
    expect(loadSettings({ CONFIG: file })).toEqual({ ok: false, error: 'PORT: must be a port number (0-65535)' });
    writeFileSync(file, '[1]');
    expect(loadSettings({ CONFIG: file })).toEqual({ ok: false, error: `CONFIG: ${file} must hold a JSON object of settings` });
    expect(loadSettings({ CONFIG: '/no/such.json' })).toMatchObject({ ok: false, error: expect.stringMatching(/^CONFIG: cannot read \/no\/such.json/) });
  });
});
