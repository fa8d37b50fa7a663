import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { KnownRoutes } from './rollout-config.js';
import type { FileRead } from './rollout-file-check.js';
import type { CheckAsk } from './rollout-file-worker.js';

export interface FileBounds {
  /** ROLLOUT_FILE_MAX_BYTES */
  maxBytes: number;
  /** how long reading and checking one file may take */
  timeoutMs: number;
}

/** The bounds of a rollout file when no setting gives them: ROLLOUT_FILE_MAX_BYTES' default, and the time limit. */
export const DEFAULT_FILE_BOUNDS: FileBounds = { maxBytes: 1024 * 1024, timeoutMs: 5_000 };

// a parse that blows up is the worker's end, not the process's
const WORKER_HEAP_MB = 128;

/**
 * The worker's entry: compiled JavaScript beside this file, or (run from the TypeScript sources in
 * the repository, as the tests are) loaded through the repository's tsx.
 */
function startWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.js')) return new Worker(new URL('./rollout-file-worker.js', here), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  const entry = new URL('./rollout-file-worker.ts', here).href;
  // tsx's ESM entry, as its package's exports name it, found from here (the process may run anywhere)
  const pkg = createRequire(here).resolve('tsx/package.json');
  const exported = (JSON.parse(readFileSync(pkg, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api'];
  const tsx = pathToFileURL(join(dirname(pkg), exported?.import.default ?? '')).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`, {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
}

/**
 * Reads and checks rollout files off the event loop: on a worker thread of the process (started on
 * the first read, kept for the next, never holding the process open), each within a time limit. A
 * read past it (a hung filesystem, a file whose parse explodes) ends the worker and is refused; the
 * next read starts a new one. Never throws: every problem is a refused FileRead naming the file.
 */
export class RolloutFileReader {
  private worker: Worker | undefined;
  private next = 0;
  private readonly waiting = new Map<number, (read: FileRead) => void>();

  constructor(private readonly bounds: FileBounds) {}

  private spawn(): Worker {
    const worker = startWorker();
    worker.unref();
    worker.on('message', ({ id, read }: { id: number; read: FileRead }) => {
      this.waiting.get(id)?.(read);
      this.waiting.delete(id);
    });
    const ended = (why: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const answer of this.waiting.values()) answer({ ok: false, error: why });
      this.waiting.clear();
    };
    worker.on('error', (err) => ended(`the rollout file could not be checked (${err.name}: ${err.message.split('\n', 1)[0]}); try again`));
    worker.on('exit', () => ended('the rollout file could not be checked (its reader stopped); try again'));
    return worker;
  }

  read(file: string, known: KnownRoutes | undefined): Promise<FileRead> {
    this.worker ??= this.spawn();
    const worker = this.worker;
    const id = this.next++;
    return new Promise<FileRead>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve({ ok: false, error: `${file}: was not read and checked within ${this.bounds.timeoutMs} ms` });
        // whatever holds it (a hung read, a runaway parse) goes with the worker
        if (this.worker === worker) this.worker = undefined;
        void worker.terminate();
      }, this.bounds.timeoutMs);
      this.waiting.set(id, (read) => {
        clearTimeout(timer);
        resolve(read);
      });
      const ask: CheckAsk = { id, file, known, maxBytes: this.bounds.maxBytes };
      worker.postMessage(ask);
    });
  }

  /** Ends the worker (the process is stopping). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
