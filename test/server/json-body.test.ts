import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../src/json/json-depth.js';
import { aipError, badRequest } from '../support/aip.js';
import { call } from '../support/emulator-harness.js';
import { A, DEV_TOKEN } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('request body depth', () => {
  it('counts objects and arrays, never brackets inside strings', () => {
    expect(nestsDeeperThan(nested(64), 64)).toBe(false);
    expect(nestsDeeperThan(nested(65), 64)).toBe(true);
    expect(nestsDeeperThan('[[[[1]]]]', 3)).toBe(true);
    expect(nestsDeeperThan(`{"s":"${'['.repeat(500)}","t":"\\"{{{{"}`, 2)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[]}]}', 4)).toBe(false);
    // an escaped backslash ends the string; an escaped quote does not
    expect(nestsDeeperThan('{"s":"\\\\","t":[[[1]]]}', 3)).toBe(true);
    expect(nestsDeeperThan('{"s":"a\\"[[[[","t":1}', 1)).toBe(false);
    expect(nestsDeeperThan('{"s":"a\\\\\\"[[[[","t":1}', 1)).toBe(false);
  });
});

describe('hostile and empty bodies through the proxy', () => {
  let env: ProxyOnEmulator;
  beforeAll(async () => {
    env = await startProxyOnEmulator();
  });
  afterAll(() => env.close());

  it('refuses a body nested deeper than 64 levels with INVALID_ARGUMENT before any v1 call', async () => {
    await call(env.h.url, 'POST', '/__emulator/stats/reset');
    for (const method of ['POST', 'PATCH']) {
      const res = await call(env.proxy.url, method, `/iam/v2beta1/groups/${A}`, { token: DEV_TOKEN, raw: nested(4500) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        aipError(3, 'Invalid argument: body: nests objects and arrays deeper than 64 levels', 'INVALID_ARGUMENT', 'iam.chainguard.dev', [
          badRequest([{ field: 'body', description: 'nests objects and arrays deeper than 64 levels' }]),
        ]),
      );
    }
    expect((await call(env.h.url, 'GET', '/__emulator/stats')).body.total).toBe(0);
    // at the limit the body is read (and then judged on its fields)
    const atLimit = await call(env.proxy.url, 'POST', `/iam/v2beta1/groups/${A}`, {
      token: DEV_TOKEN,
      raw: `{"name":"ok","description":"x","z":${nested(62)}}`,
    });
    expect(atLimit.status).toBe(200);
  });

  it('an empty JSON body on create names the missing field, as v2 defines it', async () => {
    const res = await call(env.proxy.url, 'POST', `/iam/v2beta1/groups/${A}`, { token: DEV_TOKEN, raw: '', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Invalid argument: name: /);
    expect(res.body.details[1]).toMatchObject({ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'name' }] });
  });

  it('still refuses __proto__ and malformed JSON in the one shape', async () => {
    const proto = await call(env.proxy.url, 'POST', `/iam/v2beta1/groups/${A}`, { token: DEV_TOKEN, raw: '{"name":"x","__proto__":{"admin":true}}' });
    expect(proto.body).toEqual(aipError(3, 'Invalid argument: request body holds a forbidden key (__proto__ or constructor.prototype)', 'INVALID_ARGUMENT'));
    const bad = await call(env.proxy.url, 'POST', `/iam/v2beta1/groups/${A}`, { token: DEV_TOKEN, raw: '{"name": ' });
    expect(bad.body).toEqual(aipError(3, /^Invalid argument: request body is not valid JSON: /, 'INVALID_ARGUMENT'));
  });
});
