import { createHash } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { type KnownRoutes, parseRollout, type RolloutConfig } from './rollout-config.js';

export type FileRead = { ok: true; config: RolloutConfig; text: string; digest: string } | { ok: false; error: string };

/** The first 16 hex digits of a configuration's SHA-256: how replicas tell configurations apart. */
export function configDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A file's text, read as untrusted input: a regular file (after symlinks) of at most `maxBytes`,
 * UTF-8. It is opened without blocking (a FIFO is refused, not waited on) and checked on the
 * handle it is read from (a swap between the check and the read cannot slip a device in); a file
 * that grows past the bound while read, or says it is empty (procfs), is still read only that far.
 */
export async function readBoundedText(file: string, maxBytes: number): Promise<{ ok: true; text: string } | { ok: false; problem: string }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    return { ok: false, problem: `cannot be opened (${(err as NodeJS.ErrnoException).code ?? 'failed'})` };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { ok: false, problem: `is not a regular file (${kindOf(st)})` };
    if (st.size > maxBytes) return { ok: false, problem: `is ${st.size} bytes, more than the ${maxBytes} ROLLOUT_FILE_MAX_BYTES allows` };
    const buffer = Buffer.alloc(maxBytes + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled > maxBytes) return { ok: false, problem: `is more than the ${maxBytes} bytes ROLLOUT_FILE_MAX_BYTES allows` };
    }
    try {
      return { ok: true, text: utf8.decode(buffer.subarray(0, filled)) };
    } catch {
      return { ok: false, problem: 'is not UTF-8 text' };
    }
  } catch (err) {
    return { ok: false, problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'failed'})` };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Reads and checks a rollout file whole; never throws (every problem is in `error`, one line, each by its path, nothing of the file quoted). */
export async function checkRolloutFile(file: string, known: KnownRoutes | undefined, maxBytes: number): Promise<FileRead> {
  const read = await readBoundedText(file, maxBytes);
  if (!read.ok) return { ok: false, error: `${file}: ${read.problem}` };
  const parsed = parseRollout(read.text, known);
  return parsed.ok ? { ok: true, config: parsed.config, text: read.text, digest: configDigest(read.text) } : { ok: false, error: `${file}: ${parsed.error}` };
}
