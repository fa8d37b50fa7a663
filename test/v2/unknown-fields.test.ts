import { anyTime } from '../support/matchers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { A } from '../support/fixtures.js';
import { call } from '../support/emulator-harness.js';
import { startProxy } from '../support/proxy-harness.js';
import { type RecordingUpstream, startRecordingUpstream } from '../support/recording-upstream.js';

// A v1 that has grown fields the mappings do not know: they must survive a read and a PUT.
const STORED = {
  id: `${A}/0123456789abcdef`,
  name: 'grown',
  description: 'd',
  resourceLimits: { clusters: 3 },
  verified: true,
  kind: 'ORG_KIND_CUSTOMER',
  status: 'ORG_STATUS_READY',
  billing: { plan: 'gold', seats: 12 },
  labels: ['a', 'b'],
};

describe('fields the mapping does not know', () => {
  let upstream: RecordingUpstream;
  let proxy: RunningProxy;
  beforeAll(async () => {
    upstream = await startRecordingUpstream();
    upstream.respond = (req) =>
      req.method === 'GET' ? { status: 200, body: JSON.stringify({ items: [STORED] }) } : { status: 200, body: req.body.toString('utf8') };
    proxy = await startProxy({ V1_BASE_URL: upstream.url });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('are shown on a read as v1 sent them', async () => {
    const res = await call(proxy.url, 'GET', `/iam/v2beta1/groups/${STORED.id}`, { token: 't' });
    expect(res.body).toEqual({
      uid: STORED.id,
      name: 'grown',
      description: 'd',
      resourceLimits: { clusters: 3 },
      verified: true,
      kind: 'ORG_KIND_CUSTOMER',
      status: 'ORG_STATUS_READY',
      billing: { plan: 'gold', seats: 12 },
      labels: ['a', 'b'],
      createTime: anyTime(),
      updateTime: anyTime(),
    });
  });

  it('go back untouched in the full-record PUT of a PATCH, with only the masked field changed', async () => {
    upstream.requests.length = 0;
    const res = await call(proxy.url, 'PATCH', `/iam/v2beta1/groups/${STORED.id}?update_mask=description`, {
      token: 't',
      body: { description: 'new', billing: { plan: 'free' } },
    });
    expect(res.status).toBe(200);
    const put = upstream.requests.find((r) => r.method === 'PUT');
    expect(put?.url).toBe(`/iam/v1/groups/${STORED.id}`);
    expect(JSON.parse(put?.body.toString('utf8') ?? '{}')).toEqual({ ...STORED, description: 'new' });
    expect(put?.headers.authorization).toBe('Bearer t');
  });
});
