import type { Dispatcher } from 'undici';
import type { V1Origin } from './v1-origin.js';

export type ProbeResult = { ok: true; status: number } | { ok: false; reason: string };

/**
 * Asks whether the v1 backend answers at all: any HTTP status counts, a refused or silent socket
 * does not. It goes through the v2 path's dispatcher (so an open circuit says "not ready" at once),
 * without retries: readiness is about now.
 */
export class V1Probe {
  constructor(
    private readonly v1: V1Origin,
    private readonly dispatcher: Dispatcher,
    private readonly timeoutMs: number,
    /** what is asked (any answer will do): a v1 list by default */
    private readonly path = '/iam/v1/groups?id=readiness-probe',
  ) {}

  async check(): Promise<ProbeResult> {
    try {
      const res = await this.dispatcher.request({
        method: 'GET',
        path: `${this.v1.basePath}${this.path}`,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: AbortSignal.timeout(this.timeoutMs),
        retryOptions: { maxRetries: 0 },
      } as Dispatcher.RequestOptions);
      await res.body.dump();
      return { ok: true, status: res.statusCode };
    } catch (err) {
      return { ok: false, reason: (err as { code?: string }).code ?? (err as Error).message };
    }
  }
}
