import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QuietGate } from '../../src/shadow/quiet-gate.js';

describe('the quiet gate', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('under steady load (never a moment without a request) holds only the waits under way', async () => {
    const gate = new QuietGate();
    // requests come and go, but one is always in flight
    gate.enter();
    let done = 0;
    for (let round = 0; round < 200; round += 1) {
      gate.enter();
      for (let i = 0; i < 5; i += 1) void gate.wait(5).then(() => (done += 1));
      gate.leave();
      expect(gate.waiting).toBeLessThanOrEqual(5);
      await vi.advanceTimersByTimeAsync(5);
      // each wait ran out and let go of its place
      expect(gate.waiting).toBe(0);
    }
    expect(done).toBe(1000);
  });

  it('a quiet moment wakes every waiter at once', async () => {
    const gate = new QuietGate();
    gate.enter();
    let woken = 0;
    for (let i = 0; i < 3; i += 1) void gate.wait(1_000).then(() => (woken += 1));
    gate.leave();
    await vi.advanceTimersByTimeAsync(0);
    expect(woken).toBe(3);
    expect(gate.waiting).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
