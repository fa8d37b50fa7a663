// CPU time of a process (and the children it names) from /proc, for CPU per request.
import { readdirSync, readFileSync } from 'node:fs';

export const TICK_MS = 10; // USER_HZ = 100 on Linux

function stat(pid: number): string[] {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
}

/** User + system CPU of `pid` so far, in milliseconds. */
export function cpuMs(pid: number): number {
  const fields = stat(pid);
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** The processes whose parent is `pid` (nginx's workers under its master). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (Number(stat(Number(name))[1]) === pid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
