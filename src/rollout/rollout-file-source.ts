import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/** A rollout file that cannot be used at start: the process does not start on it. */
export class RolloutFileError extends Error {
  override readonly name = 'RolloutFileError';
}

/**
 * Calls `changed` when the file may have changed: its folder is watched (editors replace a file by
 * renaming, a Kubernetes config map swaps its `..data` link and the file itself never changes),
 * debounced, and on SIGHUP. Whatever `changed` does, it cannot stop the process: its failures go to
 * `failed`. Answers the stop.
 */
export function watchRolloutFile(file: string, changed: () => Promise<unknown>, failed: (message: string) => void): () => void {
  let debounce: NodeJS.Timeout | undefined;
  const run = () => {
    try {
      changed().catch((err: unknown) => failed(`rollout: reloading ${file} failed: ${(err as Error).message}`));
    } catch (err) {
      failed(`rollout: reloading ${file} failed: ${(err as Error).message}`);
    }
  };
  process.on('SIGHUP', run);
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(file), (_event, name) => {
      if (name !== null && name !== basename(file) && !name.startsWith('..')) return;
      clearTimeout(debounce);
      debounce = setTimeout(run, 50);
    });
    watcher.on('error', (err) => failed(`rollout: watching ${file} failed: ${err.message}`));
  } catch (err) {
    failed(`rollout: cannot watch ${file}: ${(err as Error).message}; SIGHUP and POST /admin/rollout/reload still reload it`);
  }
  return () => {
    process.off('SIGHUP', run);
    clearTimeout(debounce);
    watcher?.close();
  };
}
