import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/emulator-harness.js';
import { A, DEV_TOKEN } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

// a value nested 3,500 levels deep, as a v1 that stores anything could hand back
const DEEP = JSON.parse(`${'{"a":'.repeat(3_500)}1${'}'.repeat(3_500)}`);

describe('v1 answers are held to a depth limit, and a record stored too deep can be PATCHed back to sanity', () => {
  let env: ProxyOnEmulator;
  let uid: string;
  const v2 = (method: string, path: string, body?: unknown) => call(env.proxy.url, method, path, { token: DEV_TOKEN, ...(body === undefined ? {} : { body }) });
  beforeAll(async () => {
    env = await startProxyOnEmulator();
    uid = (await v2('POST', `/iam/v2beta1/groups?parent=${A}`, { name: 'deep' })).body.uid;
    // from here on v1 answers this group with a 3,500-level description (the emulator's `set` fault)
    const faulted = await env.h.dev('POST', '/__emulator/faults', {
      body: { rules: [{ prefix: '/iam/v1/groups', method: 'GET', set: { description: DEEP } }] },
    });
    expect(faulted.status).toBe(200);
  });
  afterAll(() => env.close());

  it('a Get or List that meets the record answers FAILED_PRECONDITION saying how to repair it, never a 500', async () => {
    for (const path of [`/iam/v2beta1/groups/${uid}`, `/iam/v2beta1/groups?parent=${A}`]) {
      const res = await v2('GET', path);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(9);
      expect(res.body.message).toContain('nests deeper than 128 levels; PATCH its deep field with a shallower value');
    }
  });

  it('a PATCH that leaves the deep field alone is refused naming the field; one that replaces it lands', async () => {
    const other = await v2('PATCH', `/iam/v2beta1/groups/${uid}?update_mask=name`, { name: 'deeper' });
    expect(other.status).toBe(400);
    expect(other.body.message).toBe(
      'Precondition failed: description is stored nested deeper than 125 levels; include description in this PATCH with a shallower value',
    );

    const fixed = await v2('PATCH', `/iam/v2beta1/groups/${uid}?update_mask=description`, { description: 'sane again' });
    expect(fixed.status).toBe(200);
    await env.h.dev('DELETE', '/__emulator/faults');
    const v1 = await call(env.h.url, 'GET', `/iam/v1/groups?id=${uid}`, { token: DEV_TOKEN });
    expect(v1.body.items[0].description).toBe('sane again');
    expect((await v2('GET', `/iam/v2beta1/groups/${uid}`)).body.description).toBe('sane again');
  });
});
