import type http from 'node:http';
import http2 from 'node:http2';
import type { Server, Socket } from 'node:net';
import { apiError } from '../errors/error-registry.js';
import { RequestLife } from '../upstream/request-life.js';

// what a request is answered on: an HTTP/1.1 response, one of Node's HTTP/2 compatibility layer, or a
// plain HTTP/2 stream (the gRPC fast path)
export type Response = http.ServerResponse | http2.Http2ServerResponse | http2.ServerHttp2Stream;
type CompatResponse = http.ServerResponse | http2.Http2ServerResponse;
/**
 * Whether a request's answer was ended before it closed: for a response, its end; for a plain
 * HTTP/2 stream, its head (Node ends the writable side of a stream the client reset, so only a
 * head sent says the proxy answered).
 */
function answered(res: Response): boolean {
  return 'respond' in res ? res.headersSent : res.writableEnded;
}

export type Handler = (req: http.IncomingMessage | http2.Http2ServerRequest, res: CompatResponse) => void;

export interface ConnectionEvents {
  /** a connection past MAX_CONNECTIONS was closed as it came */
  refused(): void;
  /** an HTTP/2 session reset too many of its own streams and was ended */
  abusive(remote: string): void;
}

const QUIET: ConnectionEvents = { refused: () => undefined, abusive: () => undefined };

export interface SessionLimits {
  headersTimeoutMs: number;
  idleTimeoutMs: number;
}

// A client that resets more than half of at least RESET_FLOOR streams within RESET_WINDOW_MS is
// flooding (CVE-2023-44487 and its slower cousins): a real client cancels a few calls, not most.
const RESET_WINDOW_MS = 10_000;
const RESET_FLOOR = 100;
// a session told to close (GOAWAY) that has not closed by then is destroyed
const CLOSE_GRACE_MS = 1_000;
// at the end of a drain, an HTTP/1.1 connection is closed once it has been idle this long: a request
// already on its way (on a connection a balancer just opened, or just used) arrives well within it
export const IDLE_CLOSE_GRACE_MS = 1_000;

/**
 * The client connections of one listener: counted, bounded (MAX_CONNECTIONS, refusals reported),
 * and for HTTP/2 each session timed (its first stream within the head's time, then closed when it
 * has had no open stream for the idle time) and watched for reset floods. On drain, HTTP/2 sessions
 * get GOAWAY and HTTP/1.1 answers `Connection: close`; once the last request is answered, what is
 * left open is closed.
 */
export class OpenConnections {
  private readonly sockets = new Set<Socket>();
  private readonly sessions = new Set<http2.ServerHttp2Session>();
  // requests not answered yet, each with its life once something asked for it
  private readonly answering = new Map<Response, RequestLife | null>();
  // when each connection was accepted, or last had an answer finished
  private readonly lastActive = new WeakMap<Socket, number>();
  private lastAccepted = 0;
  private idle: (() => void) | undefined;
  private draining = false;

  /** where refusals and floods are counted and logged (set by the app) */
  events: ConnectionEvents = QUIET;

  get open(): number {
    return this.sockets.size;
  }

  /** Requests not answered yet. */
  get inFlight(): number {
    return this.answering.size;
  }

  /** Counts the server's connections and bounds them. */
  watch(server: Server, opts: { maxConnections: number }): void {
    server.maxConnections = opts.maxConnections;
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      this.lastAccepted = Date.now();
      this.lastActive.set(socket, this.lastAccepted);
      socket.once('close', () => this.sockets.delete(socket));
    });
    server.on('drop', () => this.events.refused());
  }

  /** The handler, counting each request until it is answered (or its client leaves); while draining, HTTP/1.1 answers close their connection. */
  counting(next: Handler): Handler {
    return (req, res) => {
      if (this.draining && !('stream' in res)) res.setHeader('connection', 'close');
      // the connection's last activity: this request, then its answer (the response lets go of its
      // socket when it ends, so the socket is held here)
      const socket = isHttp1(res) ? res.socket : null;
      if (socket) this.lastActive.set(socket, Date.now());
      this.answering.set(res, null);
      res.once('close', () => {
        if (socket) this.lastActive.set(socket, Date.now());
        this.settle(res);
      });
      next(req, res);
    };
  }

  /** Counts a plain HTTP/2 stream (the gRPC fast path) until it is answered or its client resets it. */
  countStream(stream: http2.ServerHttp2Stream): void {
    this.answering.set(stream, null);
    stream.once('close', () => this.settle(stream));
  }

  private settle(res: Response): void {
    const life = this.answering.get(res);
    this.answering.delete(res);
    // closed before it was answered: its client left (Node's HTTP/2 compatibility layer says
    // `finish` on a reset stream too, so the test is whether the answer was ended)
    if (life && !answered(res)) life.abort(apiError('REQUEST_CANCELLED'));
    if (this.answering.size === 0) this.idle?.();
  }

  /** The life of a request being answered, made when first asked for; undefined for a request this listener did not see (gone already, or injected). */
  lifeOf(res: Response): RequestLife | undefined {
    const known = this.answering.get(res);
    if (known !== null) return known;
    const life = new RequestLife();
    this.answering.set(res, life);
    return life;
  }

  /** The drain's time is up: every request still being answered stops its work with `reason`; how many there were. */
  stopAll(reason: unknown): number {
    for (const [res, life] of this.answering) {
      if (life) life.abort(reason);
      else {
        // asked for later, it is born stopped
        const stopped = new RequestLife();
        stopped.abort(reason);
        this.answering.set(res, stopped);
      }
    }
    return this.answering.size;
  }

  /** Times an HTTP/2 session and watches its resets. */
  session(session: http2.ServerHttp2Session, opts: SessionLimits): void {
    this.sessions.add(session);
    session.once('close', () => this.sessions.delete(session));
    if (this.draining) {
      endSession(session);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => endSession(session), ms);
      timer.unref();
    };
    // a session that never opens a stream (a preface and nothing more) is a silent connection
    arm(opts.headersTimeoutMs);
    session.once('close', () => clearTimeout(timer));
    let open = 0;
    let windowStart = Date.now();
    let opened = 0;
    let resets = 0;
    session.on('stream', (stream: http2.ServerHttp2Stream) => {
      open += 1;
      clearTimeout(timer);
      const now = Date.now();
      if (now - windowStart > RESET_WINDOW_MS) {
        windowStart = now;
        opened = 0;
        resets = 0;
      }
      opened += 1;
      // reset by the client before it was answered
      stream.once('aborted', () => {
        resets += 1;
        if (resets >= RESET_FLOOR && resets * 2 > opened && !session.destroyed) {
          this.events.abusive(session.socket?.remoteAddress ?? 'unknown');
          session.goaway(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
          session.destroy();
        }
      });
      stream.once('close', () => {
        open -= 1;
        if (open === 0 && !session.closed && !session.destroyed) arm(opts.idleTimeoutMs);
      });
    });
  }

  /**
   * Drain: every HTTP/2 session gets GOAWAY (its open streams finish), and so does any new one; every
   * HTTP/1.1 answer from now on, those under way included, closes its connection after it.
   */
  goAway(): void {
    this.draining = true;
    for (const session of this.sessions) session.close();
    for (const res of this.answering.keys()) if (isHttp1(res) && !res.headersSent) res.setHeader('connection', 'close');
  }

  /**
   * Resolves once no connection has been accepted for `quietMs` (or after `maxMs`): closing the
   * listener resets the connections its backlog holds, a request already sent on each, so it is
   * closed in a pause of new ones (at once where the balancer has stopped sending, as it should).
   */
  async acceptsPaused(quietMs: number, maxMs: number): Promise<void> {
    const until = Date.now() + maxMs;
    for (;;) {
      const quietFor = Date.now() - this.lastAccepted;
      if (quietFor >= quietMs || Date.now() >= until) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs - quietFor, until - Date.now())));
    }
  }

  /** Resolves once no request is waiting for its answer. */
  answered(): Promise<void> {
    if (this.answering.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.idle = () => {
        this.idle = undefined;
        resolve();
      };
    });
  }

  /**
   * The end of a drain, once nothing is in flight: HTTP/2 sessions (told GOAWAY) are closed, and each
   * HTTP/1.1 connection once it has been idle for `graceMs`. Closing one at once would cut a request
   * already on its way on it (a connection a balancer opened just before the listener closed): that
   * one is served instead, and its answer closes it.
   */
  closeIdle(graceMs: number): void {
    for (const session of this.sessions) session.destroy();
    const sweep = () => {
      const busy = new Set([...this.answering.keys()].filter(isHttp1).map((res) => res.socket));
      const now = Date.now();
      for (const socket of this.sockets) if (!busy.has(socket) && now - (this.lastActive.get(socket) ?? 0) >= graceMs) socket.destroy();
      if (this.sockets.size > 0) setTimeout(sweep, Math.max(10, Math.min(100, graceMs))).unref();
    };
    sweep();
  }
}

const isHttp1 = (res: Response): res is http.ServerResponse => !('stream' in res) && !('session' in res);

function endSession(session: http2.ServerHttp2Session): void {
  if (session.closed || session.destroyed) return;
  session.close();
  setTimeout(() => session.destroyed || session.destroy(), CLOSE_GRACE_MS).unref();
}
