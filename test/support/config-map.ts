import { mkdirSync, mkdtempSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A config map as the kubelet lays it out: the file links through `..data`, a link to a timestamped folder. */
export function configMap(text: string, name = 'rollout.yaml'): { file: string; swap(text: string): void } {
  const dir = mkdtempSync(join(tmpdir(), 'v2proxy-configmap-'));
  let n = 0;
  const version = (body: string) => {
    n += 1;
    const folder = `..2026_11_23_00_00_${String(n).padStart(2, '0')}.000${n}`;
    mkdirSync(join(dir, folder));
    writeFileSync(join(dir, folder, name), body);
    return folder;
  };
  symlinkSync(version(text), join(dir, '..data'));
  symlinkSync(join('..data', name), join(dir, name));
  return {
    file: join(dir, name),
    // the update: a new folder, a new link beside `..data`, renamed over it (atomic)
    swap(body) {
      symlinkSync(version(body), join(dir, '..data_tmp'));
      renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
    },
  };
}
