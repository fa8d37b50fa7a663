import { type FileHandle, open, readFile, rename, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type MetaChange, type MetaEntry, type MetaJournal, metaEntry } from './meta-store.js';

/** One journal line: an entry set (`c`, `u`, `f`) or removed (`d`). */
type Line = { k: string; c: number; u: number; f: string | null } | { k: string; d: 1 };

function lineOf(change: MetaChange): string {
  const line: Line =
    'removed' in change ? { k: change.key, d: 1 } : { k: change.key, c: change.entry.created, u: change.entry.updated, f: change.entry.fingerprint };
  return `${JSON.stringify(line)}\n`;
}

function parseLine(text: string): Line | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.k !== 'string') return undefined;
  if (o.d === 1) return { k: o.k, d: 1 };
  if (!Number.isSafeInteger(o.c) || !Number.isSafeInteger(o.u) || !(typeof o.f === 'string' || o.f === null)) return undefined;
  return { k: o.k, c: o.c as number, u: o.u as number, f: o.f as string | null };
}

async function fsyncDir(path: string): Promise<void> {
  const dir = await open(dirname(path), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

/** Writes a whole new journal beside the old one and renames it over: a crash leaves one or the other. */
async function rewrite(path: string, entries: ReadonlyMap<string, MetaEntry>): Promise<void> {
  const tmp = `${path}.tmp`;
  const fh = await open(tmp, 'w');
  try {
    const lines: string[] = [];
    for (const [key, entry] of entries) lines.push(lineOf({ key, entry }));
    await fh.writeFile(lines.join(''));
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  await fsyncDir(path);
}

export interface OpenedJournal {
  entries: Map<string, MetaEntry>;
  journal: MetaJournal;
  /** complete lines that could not be read (a damaged file), skipped */
  skipped: number;
}

/**
 * `META_STORE=file:<path>`: an append-only journal of JSON lines. A crash mid-append leaves at most
 * one torn last line, which the next start drops; compaction writes a new file and renames it over
 * the old. Appends are queued in order; durable ones wait for `datasync`.
 */
export async function openFileJournal(path: string): Promise<OpenedJournal> {
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const entries = new Map<string, MetaEntry>();
  const complete = text.lastIndexOf('\n') + 1;
  let lines = 0;
  let skipped = 0;
  for (const raw of text.slice(0, complete).split('\n')) {
    if (raw === '') continue;
    lines += 1;
    const line = parseLine(raw);
    if (!line) skipped += 1;
    else if ('d' in line) entries.delete(line.k);
    else entries.set(line.k, metaEntry(line.c, line.u, line.f));
  }
  if (complete < Buffer.byteLength(text)) await truncate(path, Buffer.byteLength(text.slice(0, complete)));
  if (skipped > 0 || lines > 2 * entries.size + 1000) {
    await rewrite(path, entries);
    lines = entries.size;
  }

  let fh: FileHandle = await open(path, 'a');
  let tail: Promise<void> = Promise.resolve();
  let closed = false;
  const enqueue = (task: () => Promise<void>): Promise<void> => {
    const run = tail.then(task);
    tail = run.catch(() => undefined);
    return run;
  };
  const journal: MetaJournal = {
    append(changes, durable) {
      if (closed) return Promise.resolve();
      return enqueue(async () => {
        await fh.appendFile(changes.map(lineOf).join(''));
        if (durable) await fh.datasync();
        lines += changes.length;
        // the journal is compacted once it holds mostly superseded lines
        if (lines > 2 * entries.size + 10_000) {
          await fh.close();
          await rewrite(path, entries);
          fh = await open(path, 'a');
          lines = entries.size;
        }
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await tail;
      await fh.close();
    },
  };
  return { entries, journal, skipped };
}
