import { readFileSync } from 'node:fs';

// descriptors beyond client connections: the backend pools (128 each), Redis, logs, files
const RESERVED = 512;

/** The soft open-file limit in `/proc/self/limits` text, if it has one. */
export function openFileLimitOf(limits: string): number | undefined {
  const soft = /^Max open files\s+(\d+|unlimited)\s/m.exec(limits)?.[1];
  return soft === undefined || soft === 'unlimited' ? undefined : Number(soft);
}

/** A warning when MAX_CONNECTIONS would exhaust the process's descriptors before it refuses connections (Linux; elsewhere nothing is known). */
export function connectionBoundWarning(maxConnections: number, read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): string | undefined {
  let limit: number | undefined;
  try {
    limit = openFileLimitOf(read());
  } catch {
    return undefined;
  }
  if (limit === undefined || maxConnections + RESERVED <= limit) return undefined;
  return `MAX_CONNECTIONS ${maxConnections} leaves too few of this process's ${limit} file descriptors for its backends: it would run out before refusing connections; lower MAX_CONNECTIONS below ${Math.max(1, limit - RESERVED)} or raise the limit (ulimit -n)`;
}
