import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BackendDispatcher, backendDispatcher } from '../../src/upstream/backend-dispatcher.js';
import { type RecordingUpstream, startRecordingUpstream } from '../support/recording-upstream.js';

// a backoff long enough to abort in, with no jitter (random 1: the whole ceiling)
const RETRY = { maxRetries: 2, baseDelayMs: 1_000, maxDelayMs: 1_000, budgetRatio: 1, budgetBurst: 100, random: () => 1 };

describe('retried reads: the retry path only when an attempt failed', () => {
  let up: RecordingUpstream;
  let backend: BackendDispatcher;
  beforeAll(async () => {
    up = await startRecordingUpstream();
    backend = backendDispatcher(up.url, {
      connections: 4,
      maxResponseBytes: 1e6,
      attemptTimeoutMs: 2_000,
      deadlineMs: 5_000,
      retry: RETRY,
      breaker: { windowMs: 2_000, minAttempts: 1_000, failureRatio: 0.5, openMs: 1_000 },
    });
  });
  afterAll(async () => {
    await backend?.close();
    await up?.close();
  });
  beforeEach(() => {
    up.requests.length = 0;
    up.respond = undefined;
  });

  const get = async (method: 'GET' | 'POST' = 'GET', signal?: AbortSignal) => {
    const res = await backend.dispatcher.request({ method, path: '/r', ...(signal ? { signal } : {}) });
    return { status: res.statusCode, body: await res.body.text() };
  };

  it('a read answered 503 goes again and the caller gets the answer that worked, not the 503', async () => {
    let n = 0;
    up.respond = () => (n++ === 0 ? { status: 503, body: 'busy' } : { status: 200, body: 'fine' });
    expect(await get()).toEqual({ status: 200, body: 'fine' });
    expect(up.requests).toHaveLength(2);
    // a call without a request id gets one, the same on every attempt
    expect(up.requests[0]?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(up.requests[1]?.headers['x-request-id']).toBe(up.requests[0]?.headers['x-request-id']);
  });

  it('after the last retry the 5xx comes back as the backend gave it; a write is never retried', async () => {
    up.respond = () => ({ status: 502, body: 'bad gateway, from v1' });
    expect(await get()).toEqual({ status: 502, body: 'bad gateway, from v1' });
    expect(up.requests).toHaveLength(3);
    up.requests.length = 0;
    expect(await get('POST')).toEqual({ status: 502, body: 'bad gateway, from v1' });
    expect(up.requests).toHaveLength(1);
  });

  it("a raw dispatch handler (undici's newer interface) is refused with a clear error, before anything is sent: every path calls through the request API", async () => {
    const handler = { onRequestStart: () => undefined, onResponseError: () => undefined };
    expect(() => backend.dispatcher.dispatch({ method: 'GET', path: '/r', origin: up.url }, handler)).toThrow(/takes undici's request API/);
    expect(up.requests).toHaveLength(0);
  });

  it('a caller that gives up during the backoff is answered at once, and no attempt follows', async () => {
    up.respond = () => ({ status: 503, body: 'busy' });
    const controller = new AbortController();
    const started = performance.now();
    const pending = get('GET', controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error('client left'));
    await expect(pending).rejects.toThrow();
    // well before the backoff would have ended
    expect(performance.now() - started).toBeLessThan(800);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(up.requests).toHaveLength(1);
  });
});
