import { describe, expect, it } from 'vitest';
import { startRollout } from '../../src/rollout/start-rollout.js';
import { configMap } from '../support/config-map.js';

const quiet = { info: () => {}, warn: () => {}, error: () => {}, changed: () => {}, rollback: () => {}, reload: () => {} };

describe('the rollout file in a Kubernetes config map', () => {
  it('a `..data` swap reloads it by itself', async () => {
    const map = configMap('routes:\n  - resource: groups\n    native: 10\n');
    const rollout = await startRollout({
      file: map.file,
      nativeBackend: 'http://native',
      overrideSecret: undefined,
      now: Date.now,
      events: quiet,
      known: new Map([['groups', ['list', 'get', 'create', 'update', 'delete']]]),
    });
    rollout.watch();
    try {
      const native = () => (rollout.status().routes as { native: number }[])[0]?.native;
      expect(native()).toBe(10);
      map.swap('routes:\n  - resource: groups\n    native: 70\n');
      const deadline = Date.now() + 5_000;
      while (native() !== 70 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(native()).toBe(70);
    } finally {
      await rollout.close();
    }
  });
});
