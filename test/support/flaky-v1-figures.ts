import { Pool } from 'undici';
import type { TcpFaultProxy, TcpMode } from './tcp-fault-proxy.js';

export interface ReadOutcome {
  /** when it was sent, ms since the phase started */
  at: number;
  ms: number;
  status: number;
  code: number | undefined;
  /** the start of a failed answer's body (which error it was), when a test lists failures */
  message?: string;
}

/** Reads `paths` in turn, `concurrency` at a time, `total` in all; returns how many answered 200. */
export async function readMany(
  origin: string,
  token: string,
  paths: readonly string[],
  total: number,
  concurrency: number,
): Promise<{ ok: number; failures: ReadOutcome[] }> {
  const pool = new Pool(origin, { connections: concurrency });
  let next = 0;
  let ok = 0;
  const failures: ReadOutcome[] = [];
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      const i = next;
      next += 1;
      const at = performance.now();
      const res = await pool.request({ method: 'GET', path: paths[i % paths.length] as string, headers: { authorization: `Bearer ${token}` } });
      const text = await res.body.text();
      if (res.statusCode === 200) ok += 1;
      else failures.push({ at: at - started, ms: performance.now() - at, status: res.statusCode, code: codeOf(text), message: text.slice(0, 200) });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await pool.close();
  return { ok, failures };
}

function codeOf(text: string): number | undefined {
  try {
    return (JSON.parse(text) as { code?: number }).code;
  } catch {
    return undefined;
  }
}

/** Reads sent every `everyMs` for `forMs` (open loop: each at its time, answered or not). */
async function steadyReads(origin: string, token: string, path: string, everyMs: number, forMs: number): Promise<ReadOutcome[]> {
  const pool = new Pool(origin, { connections: 64 });
  const started = performance.now();
  const pending: Promise<ReadOutcome>[] = [];
  for (let i = 0; i * everyMs < forMs; i += 1) {
    const wait = started + i * everyMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const at = performance.now();
    pending.push(
      pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } }).then(async (res) => {
        const text = await res.body.text();
        return { at: at - started, ms: performance.now() - at, status: res.statusCode, code: codeOf(text) };
      }),
    );
  }
  const outcomes = await Promise.all(pending);
  await pool.close();
  return outcomes;
}

export interface OutageFigures {
  /** the slowest failed read while v1 was down, ms */
  slowestFailureMs: number;
  /** the status/code pairs the failed reads answered with */
  failures: Set<string>;
  /** reads that succeeded while v1 was down (should be none) */
  okWhileDown: number;
  /** how long after v1 came back a read could still fail: the send time of the last failed read, ms (0: none failed) */
  recoveryMs: number;
  /** reads sent after v1 came back */
  readsAfter: number;
}

/** v1 goes `mode` for `downMs` while reads arrive steadily, then comes back for `upMs`. */
export async function outage(
  fault: TcpFaultProxy,
  mode: TcpMode,
  origin: string,
  token: string,
  path: string,
  opts: { everyMs: number; downMs: number; upMs: number },
): Promise<OutageFigures> {
  await fault.set(mode);
  const down = await steadyReads(origin, token, path, opts.everyMs, opts.downMs);
  await fault.set('pass');
  const up = await steadyReads(origin, token, path, opts.everyMs, opts.upMs);
  const failed = down.filter((r) => r.status !== 200);
  const lateFailures = up.filter((r) => r.status !== 200);
  return {
    slowestFailureMs: Math.max(0, ...failed.map((r) => r.ms)),
    failures: new Set(failed.map((r) => `${r.status}/${r.code}`)),
    okWhileDown: down.length - failed.length,
    recoveryMs: Math.max(0, ...lateFailures.map((r) => r.at + opts.everyMs)),
    readsAfter: up.length,
  };
}
