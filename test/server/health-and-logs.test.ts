import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { buildProxyApp } from '../../src/app/build-proxy-app.js';
import { resolveSettings } from '../../src/config/load-settings.js';
import { DEV_TOKEN } from '../support/fixtures.js';
import { call } from '../support/emulator-harness.js';
import { LogCapture, type ProxyOnEmulator, settingsFrom, startProxyOnEmulator } from '../support/proxy-harness.js';
import { startRecordingUpstream } from '../support/recording-upstream.js';

describe('health and readiness', () => {
  let proxy: RunningProxy;
  let env: ProxyOnEmulator;
  beforeAll(async () => {
    env = await startProxyOnEmulator();
    proxy = env.proxy;
  });
  afterAll(() => env.close());

  it('/healthz answers 200 once the proxy serves; /readyz 200 while v1 answers', async () => {
    expect(await call(proxy.url, 'GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call(proxy.url, 'GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('/readyz answers 503 code 14 once v1 stops answering, while /healthz stays 200', async () => {
    const upstream = await startRecordingUpstream();
    const url = upstream.url;
    const app = await buildProxyApp(resolveSettings(settingsFrom({ V1_BASE_URL: url }), url, 0));
    try {
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      await upstream.close();
      const down = await app.inject({ method: 'GET', url: '/readyz' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ code: 14, message: expect.stringMatching(/^Unavailable: the v1 backend does not answer/) });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('logs', () => {
  it('are pino JSON lines with a request id, and never carry the Authorization header', async () => {
    const logs = new LogCapture();
    const env = await startProxyOnEmulator({ LOG_LEVEL: 'trace' }, logs);
    const { proxy } = env;
    try {
      const res = await fetch(`${proxy.url}/iam/v1/groups`, { headers: { authorization: `Bearer ${DEV_TOKEN}`, 'x-request-id': 'req-123' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe('req-123');
      const odd = await fetch(`${proxy.url}/healthz`, { headers: { 'x-request-id': 'bad id with spaces {}' } });
      expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      await env.close();
      expect(logs.lines.length).toBeGreaterThan(0);
      const entries = logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(entries.some((e) => e.reqId === 'req-123')).toBe(true);
      // one line per request, when answered: method, URL, status and time together (the passthrough too)
      const own = entries.filter((e) => e.reqId === 'req-123');
      expect(own).toEqual([
        expect.objectContaining({ msg: 'request completed', req: expect.objectContaining({ method: 'GET', url: '/iam/v1/groups' }), res: { statusCode: 200 } }),
      ]);
      expect(own[0]?.responseTime).toEqual(expect.any(Number));
      expect(logs.text).not.toContain(DEV_TOKEN);
      expect(logs.text.toLowerCase()).not.toMatch(/"authorization":"bearer/);
    } finally {
      await env.close();
    }
  });
});

describe('proxy errors', () => {
  it('an unknown path answers 404 code 5 in AIP-193 form with the domain of its prefix', async () => {
    const url = 'http://127.0.0.1:9';
    const app = await buildProxyApp(resolveSettings(settingsFrom({ V1_BASE_URL: url }), url, 0));
    try {
      const cases: [string, string][] = [
        ['/nope', 'iam.chainguard.dev'],
        ['/registry/v9/x', 'registry.chainguard.dev'],
        ['/vulnerabilities/x', 'vulnerabilities.chainguard.dev'],
      ];
      for (const [path, domain] of cases) {
        const res = await app.inject({ method: 'GET', url: path });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({
          code: 5,
          message: `Not found: no route for GET ${path}`,
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'NOT_FOUND', domain }],
        });
      }
    } finally {
      await app.close();
    }
  });
});
