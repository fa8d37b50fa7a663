import { mkdirSync, mkdtempSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RolloutController } from '../../src/rollout/rollout-controller.js';

const quiet = { info: () => {}, error: () => {}, rollback: () => {}, reload: () => {}, progress: () => {} };

/** A config map as the kubelet lays it out: the file links through `..data`, a link to a timestamped folder. */
function configMap(text: string): { file: string; swap(text: string): void } {
  const dir = mkdtempSync(join(tmpdir(), 'v2proxy-configmap-'));
  let n = 0;
  const version = (body: string) => {
    n += 1;
    const folder = `..2026_11_23_00_00_0${n}.000${n}`;
    mkdirSync(join(dir, folder));
    writeFileSync(join(dir, folder, 'rollout.yaml'), body);
    return folder;
  };
  symlinkSync(version(text), join(dir, '..data'));
  symlinkSync(join('..data', 'rollout.yaml'), join(dir, 'rollout.yaml'));
  return {
    file: join(dir, 'rollout.yaml'),
    // the update: a new folder, a new link beside `..data`, renamed over it (atomic)
    swap(body) {
      symlinkSync(version(body), join(dir, '..data_tmp'));
      renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
    },
  };
}

describe('the rollout file in a Kubernetes config map', () => {
  it('a `..data` swap reloads it by itself', async () => {
    const map = configMap('routes:\n  - resource: groups\n    native: 10\n');
    const rollout = new RolloutController({
      file: map.file,
      nativeBackend: 'http://native',
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
      rollout.stop();
    }
  });
});
