import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, DEV_TOKEN, TOKENS } from '../support/fixtures.js';

describe('emulator fault injection', () => {
  let h: EmulatorHarness;
  const faults = (rules: unknown[]) => h.dev('POST', '/__emulator/faults', { body: { rules } });
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.dev('DELETE', '/__emulator/faults');
  });
  afterAll(() => h.close());

  it('needs the dev token and a well-formed rule list', async () => {
    expect((await h.call('POST', '/__emulator/faults', { token: TOKENS.alice, body: { rules: [] } })).status).toBe(401);
    const bad = await faults([{ prefix: 'iam', rate: 2 }]);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 3, message: expect.stringMatching(/^rules\.0\.prefix: /), details: [] });
    expect((await faults([{ prefix: '/iam', colour: 'red' }])).status).toBe(400);
  });

  it('answers an HTTP status with a grpc-gateway body, on v1 and v2 paths alike, only for the matching method', async () => {
    expect((await faults([{ prefix: '/iam/', method: 'GET', status: 503 }])).status).toBe(200);
    const v1 = await h.dev('GET', '/iam/v1/groups');
    expect(v1.status).toBe(503);
    expect(v1.body).toEqual({ code: 14, message: 'injected fault: HTTP 503', details: [] });
    expect((await h.v2('GET', '/iam/v2beta1/groups', { token: DEV_TOKEN })).status).toBe(503);
    // another method or another prefix is untouched
    expect((await h.dev('POST', `/iam/v1/groups/${A}`, { body: { name: 'ok' } })).status).toBe(200);
    expect((await h.dev('GET', '/registry/v1/repos')).status).toBe(200);
    await h.dev('DELETE', '/__emulator/faults');
    expect((await h.dev('GET', '/iam/v1/groups')).status).toBe(200);
  });

  it('overwrites fields of a v2 Get and of every item of a v2 List with `set`', async () => {
    await faults([{ prefix: '/iam/v2beta1/groups', set: { description: 'planted' } }]);
    const list = await h.v2('GET', `/iam/v2beta1/groups?uidp.children_of=${A}`, { token: DEV_TOKEN });
    expect(list.body.groups.length).toBeGreaterThan(0);
    expect(list.body.groups.every((g: { description: string }) => g.description === 'planted')).toBe(true);
    expect(list.body.totalCount).toBe(String(list.body.groups.length));
    const one = await h.v2('GET', `/iam/v2beta1/groups/${A}`, { token: DEV_TOKEN });
    expect(one.body).toMatchObject({ uid: A, description: 'planted' });
    // the store is untouched
    await h.dev('DELETE', '/__emulator/faults');
    expect((await h.v2('GET', `/iam/v2beta1/groups/${A}`, { token: DEV_TOKEN })).body.description).toBe('Tenant A');
  });

  it('changes what a matching write stores with `write`: a field dropped (kept as it was, mask or not), another value, a delete that removes nothing', async () => {
    expect((await faults([{ prefix: '/iam', write: { drop: 'description' } }])).status).toBe(400);
    const made = await h.v2('POST', `/iam/v2beta1/groups/${A}`, { token: DEV_TOKEN, body: { name: 'written', description: 'first' } });
    const uid = made.body.uid as string;
    await faults([{ prefix: '/iam/v2beta1/groups', method: 'PATCH', write: { drop: ['description'], set: { verified: true } } }]);
    const masked = await h.v2('PATCH', `/iam/v2beta1/groups/${uid}?update_mask=description`, { token: DEV_TOKEN, body: { description: 'asked' } });
    expect(masked.body).toMatchObject({ description: 'first', verified: true });
    const unmasked = await h.v2('PATCH', `/iam/v2beta1/groups/${uid}`, { token: DEV_TOKEN, body: { description: 'asked again' } });
    expect(unmasked.body).toMatchObject({ description: 'first' });
    // a read is untouched; the v1 surface too
    expect((await h.v2('GET', `/iam/v2beta1/groups/${uid}`, { token: DEV_TOKEN })).body.description).toBe('first');
    await faults([{ prefix: '/iam/v2beta1/groups', method: 'DELETE', write: { keep: true } }]);
    expect((await h.v2('DELETE', `/iam/v2beta1/groups/${uid}`, { token: DEV_TOKEN })).status).toBe(200);
    expect((await h.v2('GET', `/iam/v2beta1/groups/${uid}`, { token: DEV_TOKEN })).status).toBe(200);
    await h.dev('DELETE', '/__emulator/faults');
    expect((await h.v2('DELETE', `/iam/v2beta1/groups/${uid}`, { token: DEV_TOKEN })).status).toBe(200);
    expect((await h.v2('GET', `/iam/v2beta1/groups/${uid}`, { token: DEV_TOKEN })).status).toBe(404);
  });

  it('resets the connection, or never answers until closed, or delays', async () => {
    await faults([{ prefix: '/iam/v1/roles', reset: true }]);
    await expect(fetch(`${h.url}/iam/v1/roles`, { headers: { authorization: `Bearer ${DEV_TOKEN}` } })).rejects.toThrow();
    await faults([{ prefix: '/iam/v1/roles', hang: true }]);
    const hung = fetch(`${h.url}/iam/v1/roles`, { headers: { authorization: `Bearer ${DEV_TOKEN}` }, signal: AbortSignal.timeout(300) });
    await expect(hung).rejects.toThrow(/abort|timeout/i);
    await faults([{ prefix: '/iam/v1/roles', delayMs: 150 }]);
    const started = performance.now();
    const delayed = await call(h.url, 'GET', '/iam/v1/roles', { token: DEV_TOKEN });
    expect(delayed.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('applies a rule to about its rate of requests', async () => {
    await faults([{ prefix: '/iam/v1/groups', rate: 0.5, status: 503 }]);
    let failed = 0;
    for (let i = 0; i < 200; i += 1) if ((await h.dev('GET', '/iam/v1/groups')).status === 503) failed += 1;
    // binomial(200, 0.5): outside 60..140 has a probability below 1e-8
    expect(failed).toBeGreaterThan(60);
    expect(failed).toBeLessThan(140);
  });
});
