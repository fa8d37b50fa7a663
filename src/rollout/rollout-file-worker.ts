// The thread rollout files are read and checked on (see rollout-file-reader.ts): a file that is
// slow to read or to parse stalls this thread, never a request.
import { parentPort } from 'node:worker_threads';
import type { KnownRoutes } from './rollout-config.js';
import { checkRolloutFile } from './rollout-file-check.js';

export interface CheckAsk {
  id: number;
  file: string;
  known: KnownRoutes | undefined;
  maxBytes: number;
}

parentPort?.on('message', (ask: CheckAsk) => {
  void checkRolloutFile(ask.file, ask.known, ask.maxBytes).then((read) => parentPort?.postMessage({ id: ask.id, read }));
});
