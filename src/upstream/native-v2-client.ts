import type { Dispatcher } from 'undici';
import { abortReason, stopOfSignal } from './abort-reason.js';
import type { Stop } from '../errors/request-outcome.js';
import { callDeadline } from './retry-reads.js';
import { type RequestSpans, type UpstreamServer, upstreamServer } from './attempt-spans.js';
import type { TraceContext } from './trace-context.js';
import { transportError } from './transport-error.js';
import { type WholeAnswer, wholeAnswer } from './whole-answer.js';
import type { LifeSignal } from './request-life.js';

export interface NativeRequest {
  method: string;
  /** path and query as the client sent them */
  url: string;
  authorization: string | undefined;
  requestId: string;
  contentType: string | undefined;
  body: string | undefined;
  /** the request's life (see V1Request) */
  signal?: LifeSignal | undefined;
  trace?: TraceContext | undefined;
  spans?: RequestSpans | undefined;
}

/** The native backend's answer, as it sent it. */
export type NativeAnswer = WholeAnswer;

/**
 * The native v2 backend, reached as a faithful pass-through: the request goes as the client sent it
 * (method, path, query, body, Authorization, x-request-id) and the answer comes back byte for byte,
 * bounded in size. No answer at all is an ApiError (14 unreachable, 4 too slow). It goes through its
 * own composed backend dispatcher (retried reads, breaker, attempt timeout), as v1 calls do.
 */
export class NativeV2Client {
  private readonly server: UpstreamServer;

  constructor(
    private readonly origin: string,
    private readonly basePath: string,
    private readonly dispatcher: Dispatcher,
    private readonly opts: { timeoutMs: number; maxResponseBytes: number; observe?: (status: number | 'error' | Stop) => void },
  ) {
    this.server = upstreamServer(origin);
  }

  async forward(req: NativeRequest): Promise<NativeAnswer> {
    const { signal } = req;
    if (signal?.aborted) throw abortReason(signal);
    const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': req.requestId };
    if (req.authorization) headers.authorization = req.authorization;
    if (req.body !== undefined) headers['content-type'] = req.contentType ?? 'application/json';
    if (req.trace) Object.assign(headers, req.trace);
    try {
      const answer = await wholeAnswer(this.dispatcher, {
        method: req.method as 'GET',
        path: `${this.basePath}${req.url}`,
        headers,
        body: req.body ?? null,
        ...callDeadline(this.opts.timeoutMs),
        life: signal,
        spans: req.spans?.call({
          backend: 'v2',
          protocol: 'http',
          method: req.method,
          target: `${this.origin}${this.basePath}${req.url.split('?', 1)[0]}`,
          server: this.server,
        }),
      });
      this.opts.observe?.(answer.status);
      return answer;
    } catch (err) {
      if (signal?.aborted) {
        this.opts.observe?.(stopOfSignal(signal));
        throw abortReason(signal);
      }
      this.opts.observe?.('error');
      throw transportError(err, this.opts.maxResponseBytes, 'the native v2 backend');
    }
  }
}
