import { Pool } from 'undici';
import type { V1Origin } from './v1-origin.js';

export type ProbeResult = { ok: true; status: number } | { ok: false; reason: string };

/** Asks whether the v1 backend answers at all: any HTTP status counts, a refused or silent socket does not. */
export class V1Probe {
  private readonly pool: Pool;

  constructor(
    private readonly v1: V1Origin,
    private readonly timeoutMs: number,
  ) {
    this.pool = new Pool(v1.origin, { connections: 2 });
  }

  async check(): Promise<ProbeResult> {
    try {
      const res = await this.pool.request({
        method: 'GET',
        path: `${this.v1.basePath}/iam/v1/groups?id=readiness-probe`,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await res.body.dump();
      return { ok: true, status: res.statusCode };
    } catch (err) {
      return { ok: false, reason: (err as { code?: string }).code ?? (err as Error).message };
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
