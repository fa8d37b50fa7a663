import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import { call } from '../support/emulator-harness.js';
import { A, DEV_TOKEN } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

// A generic HTTP tool learns what a path serves from the Allow of a wrong method's 501, on the
// translated side as on the native one.
describe('a wrong method on a served path: 501 code 12 with Allow, on both sides alike', () => {
  let env: ProxyOnEmulator;
  beforeAll(async () => {
    env = await startProxyOnEmulator();
  });
  afterAll(() => env.close());

  it('names the methods each collection and item path serves, as the native service does', async () => {
    const seen: string[] = [];
    const differ: string[] = [];
    for (const r of loadMappings()) {
      const base = `${r.prefix}/${r.segment}`;
      for (const [method, path] of [
        ['PUT', base],
        ['DELETE', base],
        ['PUT', `${base}/${A}/00000000000000ab`],
        ...(['PATCH', 'DELETE', 'GET'] as const).map((m) => [m, `${base}/${A}/00000000000000ab`] as const),
      ] as const) {
        const [proxied, native] = await Promise.all(
          [env.proxy.url, env.h.v2url].map((url) =>
            call(url, method, path, { token: DEV_TOKEN, ...(method === 'PUT' || method === 'PATCH' ? { body: {} } : {}) }),
          ),
        );
        if (!proxied || native?.status !== 501) continue;
        seen.push(`${method} ${path}: ${native.headers.get('allow')}`);
        const [p, n] = [proxied, native].map((a) => ({ status: a.status, code: (a.body as { code?: number }).code, allow: a.headers.get('allow') }));
        if (JSON.stringify(p) !== JSON.stringify(n)) differ.push(`${method} ${path}: proxy ${JSON.stringify(p)}, native ${JSON.stringify(n)}`);
      }
    }
    expect(differ).toEqual([]);
    // every resource's wrong PUT was among them, and the header says something
    expect(seen.length).toBeGreaterThanOrEqual(20);
    expect(seen).toContain(`PUT /iam/v2beta1/groups/${A}/00000000000000ab: GET, POST, PATCH, DELETE`);
    expect(seen).toContain('DELETE /iam/v2beta1/groups: GET, POST');
  });

  it('on v1 too, as its gateway answers', async () => {
    const wrong = await call(env.h.url, 'PATCH', `/iam/v1/groups/${A}`, { token: DEV_TOKEN, body: {} });
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([501, 'POST, PUT, DELETE']);
  });
});
