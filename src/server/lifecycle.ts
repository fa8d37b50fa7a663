import { setMaxListeners } from 'node:events';
import type http2 from 'node:http2';
import { apiError } from '../errors/error-registry.js';
import { type LifeSignal, RequestLife } from '../upstream/request-life.js';
import { IDLE_CLOSE_GRACE_MS, OpenConnections, type Response } from './open-connections.js';

export type Phase = 'serving' | 'draining' | 'closing' | 'closed';

function cancelled(): RequestLife {
  const life = new RequestLife();
  life.abort(apiError('REQUEST_CANCELLED'));
  return life;
}

const closed = (res: Response): boolean =>
  'stream' in res ? res.stream.destroyed || res.stream.closed : 'session' in res ? res.destroyed || res.closed : res.destroyed;

export interface DrainTiming {
  /** how long everything but readiness is still served, ms */
  delayMs: number;
  /** from the start of the drain to the exit, ms */
  timeoutMs: number;
}

export interface DrainLog {
  info(message: string): void;
  warn(message: string): void;
}

// the listener closes once no connection has come for this long, waiting at most the second
const ACCEPT_PAUSE_MS = 50;
const ACCEPT_PAUSE_MAX_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Where the process is in its life, and how it ends. Serving; draining (`/readyz` 503, everything
 * else served, for load balancers to notice); closing (no new connections, HTTP/2 GOAWAY, HTTP/1.1
 * answers close their connection, in-flight requests, streams and shadows finish); closed. Each
 * request's life is a signal that aborts when its client leaves before the answer, or when the
 * drain's time is up: then every request still running stops its upstream calls and answers
 * SHUTTING_DOWN, and what is left open is closed.
 */
export class Lifecycle {
  phase: Phase = 'serving';
  readonly connections = new OpenConnections();
  private readonly stopping = new AbortController();
  private readonly atDeadline: (() => void)[] = [];

  constructor() {
    // every in-flight gRPC call listens on it
    setMaxListeners(0, this.stopping.signal);
  }

  /** Aborted (with SHUTTING_DOWN) when the drain's time is up. */
  get shutdownSignal(): AbortSignal {
    return this.stopping.signal;
  }

  /** A request's life: aborted when its client goes before the answer (REQUEST_CANCELLED) or the drain stops everything. */
  requestSignal(res: Response): LifeSignal {
    // answered already (a shadow read after the answer): only the drain stops it
    if (res.writableEnded) return this.stopping.signal;
    const life = this.connections.lifeOf(res);
    if (life) {
      // one that arrives after the drain's deadline is stopped already
      if (this.stopping.signal.aborted) life.abort(this.stopping.signal.reason);
      return life;
    }
    // the client left before this request got here: nothing is to start for it (an injected
    // request, which no listener counts, has only the drain)
    return closed(res) ? cancelled() : this.stopping.signal;
  }

  /** A plain HTTP/2 stream's life (the gRPC fast path), counted like a request until it is answered or reset. */
  streamLife(stream: http2.ServerHttp2Stream): RequestLife {
    this.connections.countStream(stream);
    const life = this.connections.lifeOf(stream) as RequestLife;
    if (this.stopping.signal.aborted) life.abort(this.stopping.signal.reason);
    return life;
  }

  /**
   * Work that stops when the drain's time is up: the backends' pools, so calls under way end at once
   * (a request's life is checked before each call, not handed to every call).
   */
  onDeadline(stop: () => void): void {
    this.atDeadline.push(stop);
  }

  /** The drain's time is up: every request still running stops its upstream work and answers SHUTTING_DOWN. */
  stopAll(): number {
    const reason = apiError('SHUTTING_DOWN');
    this.stopping.abort(reason);
    const running = this.connections.stopAll(reason);
    for (const stop of this.atDeadline) stop();
    return running;
  }

  /**
   * The listener is closing (`app.close()`, from a drain or directly): HTTP/2 sessions get GOAWAY,
   * HTTP/1.1 answers close their connection, and once no request waits for its answer, what is left
   * open (idle kept-alive connections) is closed, so the listener's close completes.
   */
  closing(): void {
    if (this.phase === 'closing' || this.phase === 'closed') return;
    this.phase = 'closing';
    this.connections.goAway();
    void this.connections.answered().then(() => this.connections.closeIdle(IDLE_CLOSE_GRACE_MS));
  }

  /**
   * Ends the process's serving: not ready at once, still serving for `delayMs`, then `close` (the
   * app's close, which calls `closing`), in-flight work finishing until shortly before `timeoutMs`,
   * when what still runs is stopped and answered SHUTTING_DOWN.
   */
  async drain(timing: DrainTiming, close: () => Promise<void>, log: DrainLog): Promise<void> {
    if (this.phase !== 'serving') return;
    const started = Date.now();
    this.phase = 'draining';
    if (timing.delayMs > 0) {
      log.info(`shutting down: /readyz answers 503; still serving for ${timing.delayMs} ms (SHUTDOWN_DELAY_MS)`);
      await sleep(timing.delayMs);
    }
    await this.connections.acceptsPaused(ACCEPT_PAUSE_MS, ACCEPT_PAUSE_MAX_MS);
    log.info(`closing: no new connections; ${this.connections.inFlight} requests in flight`);
    // the last moments are kept for answering what is stopped and writing the logs
    const margin = Math.min(1_000, Math.max(50, Math.floor(timing.timeoutMs / 10)));
    const deadline = setTimeout(
      () => {
        const stopped = this.stopAll();
        if (stopped > 0) log.warn(`drain deadline: ${stopped} requests still running were stopped and answered 503`);
      },
      Math.max(0, timing.timeoutMs - margin - (Date.now() - started)),
    );
    await close();
    clearTimeout(deadline);
    this.phase = 'closed';
    log.info(`shut down in ${Date.now() - started} ms`);
  }
}
