import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebhookOutcome, WebhookSender } from '../../src/upstream/webhook-sender.js';
import { type RecordingUpstream, startRecordingUpstream } from '../support/recording-upstream.js';

describe('the rollout webhook sender', () => {
  let hook: RecordingUpstream;
  beforeAll(async () => {
    hook = await startRecordingUpstream();
  });
  afterAll(async () => {
    await hook?.close();
  });

  function sender(path: string, extra: { attempts?: number; maxQueued?: number } = {}) {
    const outcomes: WebhookOutcome[] = [];
    const failures: string[] = [];
    const s = new WebhookSender({
      url: `${hook.url}${path}`,
      timeoutMs: 2_000,
      backoffMs: 5,
      attempts: extra.attempts ?? 3,
      maxQueued: extra.maxQueued ?? 100,
      outcome: (o) => outcomes.push(o),
      failed: (m) => failures.push(m),
    });
    return { s, outcomes, failures };
  }
  const settled = async (outcomes: WebhookOutcome[], n: number) => {
    const deadline = Date.now() + 5_000;
    while (outcomes.filter((o) => o !== 'retried').length < n) {
      if (Date.now() > deadline) throw new Error(`outcomes: ${outcomes.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('gives an event up after its attempts, counted and logged without the URL (it may hold a secret), and goes on with the next in order', async () => {
    hook.requests.length = 0;
    hook.respond = (req) => ({ status: req.body.toString().includes('"n":1') ? 500 : 200, body: '' });
    const { s, outcomes, failures } = sender('/hooks/secret-token-in-path');
    s.send({ n: 1 });
    s.send({ n: 2 });
    await settled(outcomes, 2);
    expect(outcomes).toEqual(['retried', 'retried', 'failed', 'delivered']);
    expect(hook.requests.map((r) => JSON.parse(r.body.toString()).n)).toEqual([1, 1, 1, 2]);
    expect(hook.requests[0]?.headers['content-type']).toBe('application/json');
    expect(failures).toEqual(['rollout webhook: an event was given up after 3 attempts (last: answered 500)']);
    expect(failures.join()).not.toContain('secret');
    await s.close(100);
  });

  it('drops what does not fit its queue (counted) instead of holding memory or a request', async () => {
    hook.requests.length = 0;
    hook.respond = () => ({ status: 204, body: '', delayMs: 50 });
    const { s, outcomes } = sender('/hooks/slow', { maxQueued: 2 });
    for (let n = 0; n < 5; n += 1) s.send({ n });
    // the first is on its way, two wait, two are dropped
    expect(outcomes).toEqual(['dropped', 'dropped']);
    await settled(outcomes, 5);
    expect(outcomes.filter((o) => o === 'delivered')).toHaveLength(3);
    await s.close(100);
  });
});
