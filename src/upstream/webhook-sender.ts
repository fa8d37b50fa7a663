import { postForStatus } from './post-for-status.js';

export type WebhookOutcome = 'delivered' | 'retried' | 'failed' | 'dropped';

export interface WebhookOptions {
  url: string;
  /** per attempt */
  timeoutMs: number;
  /** the first retry's wait; each later one waits twice as long */
  backoffMs: number;
  attempts: number;
  /** events waiting beyond this are dropped (and counted) */
  maxQueued: number;
  outcome(outcome: WebhookOutcome): void;
  /** a delivery that failed for good, in words (never the URL: it may hold a secret) */
  failed(message: string): void;
}

/**
 * Sends JSON events to a webhook, in order, one at a time, off the request path: `send` only
 * queues. A non-2xx answer or no answer is retried with exponential backoff; after the last attempt
 * the event is given up (counted and logged), and the next one goes.
 */
export class WebhookSender {
  private readonly queue: string[] = [];
  private sending = false;
  private draining: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private closed = false;

  constructor(private readonly opts: WebhookOptions) {}

  send(event: unknown): void {
    if (this.closed) return;
    if (this.queue.length >= this.opts.maxQueued) {
      this.opts.outcome('dropped');
      return;
    }
    this.queue.push(JSON.stringify(event));
    if (!this.sending) this.draining = this.drain();
  }

  /** Stops retrying: what is queued gets one more attempt within `timeoutMs`, then is given up. */
  async close(timeoutMs: number): Promise<void> {
    this.closed = true;
    this.wake?.();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.draining, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  private async drain(): Promise<void> {
    this.sending = true;
    try {
      for (let body = this.queue.shift(); body !== undefined; body = this.queue.shift()) await this.deliver(body);
    } finally {
      this.sending = false;
    }
  }

  private async deliver(body: string): Promise<void> {
    let why = '';
    for (let attempt = 1; attempt <= this.opts.attempts; attempt += 1) {
      if (attempt > 1) {
        this.opts.outcome('retried');
        await this.wait(this.opts.backoffMs * 2 ** (attempt - 2));
      }
      try {
        const status = await postForStatus(this.opts.url, body, {
          headers: { 'content-type': 'application/json', 'user-agent': 'v2proxy' },
          signal: AbortSignal.timeout(this.opts.timeoutMs),
        });
        if (status >= 200 && status < 300) {
          this.opts.outcome('delivered');
          return;
        }
        why = `answered ${status}`;
      } catch (err) {
        why = (err as NodeJS.ErrnoException).code ?? (err as Error).name;
      }
      if (this.closed) break;
    }
    this.opts.outcome('failed');
    this.opts.failed(`rollout webhook: an event was given up after ${this.opts.attempts} attempts (last: ${why})`);
  }

  private wait(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
