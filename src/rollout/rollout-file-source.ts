import { createHash } from 'node:crypto';
import { type FSWatcher, readFileSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { type KnownRoutes, parseRollout, type RolloutConfig } from './rollout-config.js';

export type FileRead = { ok: true; config: RolloutConfig; text: string; digest: string } | { ok: false; error: string };

/** A rollout file that cannot be used at start: the process does not start on it. */
export class RolloutFileError extends Error {
  override readonly name = 'RolloutFileError';
}

/** The first 16 hex digits of a configuration's SHA-256: how replicas tell configurations apart. */
export function configDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Reads and checks a rollout file whole; never throws (every problem is in `error`, one line, each by its path). */
export function readRolloutFile(file: string, known: KnownRoutes | undefined): FileRead {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { ok: false, error: `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  const parsed = parseRollout(text, known);
  return parsed.ok ? { ok: true, config: parsed.config, text, digest: configDigest(text) } : { ok: false, error: `${file}: ${parsed.error}` };
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
