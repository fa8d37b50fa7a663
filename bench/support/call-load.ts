// Closed-loop load for CPU per call: a REST or gRPC caller, and the CPU a process spends on n calls.
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { Pool } from 'undici';
import { IdentitiesService } from '../../src/gen/chainguard/platform/iam/v2beta1/identities_pb.js';
import { cpuMs } from './process-cpu.js';

export interface Caller {
  call(): Promise<void>;
  /** each call's time (ms), in order; cleared by whoever reads it */
  latencies: number[];
}

/** GET `path` on `url` over 4 connections, each answer checked to be a 200. */
export function restCaller(url: string, path: string, token: string): Caller {
  const pool = new Pool(url, { connections: 4 });
  const latencies: number[] = [];
  return {
    latencies,
    call: async () => {
      const t0 = performance.now();
      const res = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } });
      await res.body.dump();
      latencies.push(performance.now() - t0);
      if (res.statusCode !== 200) throw new Error(`${url}${path}: ${res.statusCode}`);
    },
  };
}

/** GetIdentity of `uid` over h2c (Connect's gRPC transport, as the platform SDK calls it), each answer checked. */
export function grpcCaller(url: string, uid: string, token: string): Caller {
  const client = createClient(IdentitiesService, createGrpcTransport({ baseUrl: url }));
  const latencies: number[] = [];
  return {
    latencies,
    call: async () => {
      const t0 = performance.now();
      const answer = await client.getIdentity({ uid }, { headers: { authorization: `Bearer ${token}` } });
      latencies.push(performance.now() - t0);
      if (answer.uid !== uid) throw new Error(`${url}: a GetIdentity answered ${answer.uid}`);
    },
  };
}

/** CPU per call (µs) of `pid` while `n` calls go, `concurrency` at a time, each as soon as the last is answered. */
export async function cpuPerCall(pid: number, n: number, call: () => Promise<void>, concurrency = 4): Promise<number> {
  let left = n;
  const c0 = cpuMs(pid);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left > 0) {
        left -= 1;
        await call();
      }
    }),
  );
  return ((cpuMs(pid) - c0) * 1000) / n;
}
