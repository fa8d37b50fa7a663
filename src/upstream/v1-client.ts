import type { Dispatcher } from 'undici';
import { apiError } from '../errors/error-registry.js';
import sjson from 'secure-json-parse';
import { nestsDeeperThan } from '../json/json-depth.js';
import { abortReason, stopOfSignal } from './abort-reason.js';
import type { Stop } from '../errors/request-outcome.js';
import { callDeadline } from './retry-reads.js';
import { type RequestSpans, type UpstreamCall, type UpstreamServer, upstreamServer } from './attempt-spans.js';
import type { TraceContext } from './trace-context.js';
import { transportError } from './transport-error.js';
import { utf8Text, wholeAnswer } from './whole-answer.js';
import type { V1Origin } from './v1-origin.js';
import type { LifeSignal } from './request-life.js';

export type QueryValues = Record<string, string | readonly string[] | undefined>;

/** One call to v1: what is asked. */
export interface V1Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** path below the v1 base, e.g. `/iam/v1/groups` */
  path: string;
  query?: QueryValues;
  /** a JSON body, or a form (`application/x-www-form-urlencoded`) */
  json?: unknown;
  form?: QueryValues;
  /** how deep the answer may nest (default: the client's limit); a PATCH reads deeper records to repair them */
  maxDepth?: number;
}

/** Who asks, for every call of one request: passed beside the call, never merged into it. */
export interface V1Caller {
  authorization?: string | undefined;
  requestId?: string;
  /** the request's life: once aborted (the client left, the drain's time is up) no call starts */
  signal?: LifeSignal | undefined;
  /** the client's trace headers, forwarded */
  trace?: TraceContext | undefined;
  /** a traced request's spans: each attempt of the call gets one */
  spans?: RequestSpans | undefined;
  /** what the call is for, when it is not the request's own (its spans say so) */
  purpose?: UpstreamCall['purpose'];
}

export interface V1Answer {
  status: number;
  body: unknown;
}

/** An answer as it arrived: its status and body text. */
export interface V1Text {
  status: number;
  text: string;
}

export function encodeQuery(query: QueryValues | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const one of typeof value === 'string' ? [value] : value) params.append(key, one);
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * The only client the v2 surface uses to reach v1, over the composed backend dispatcher (retries,
 * breaker, attempt timeout, size bound): a deadline per call, prototype-safe JSON bodies no deeper
 * than `maxDepth`, and transport failures as stable ApiErrors (14, 4).
 */
export class V1Client {
  private readonly server: UpstreamServer;

  constructor(
    private readonly v1: V1Origin,
    private readonly dispatcher: Dispatcher,
    private readonly opts: {
      timeoutMs: number;
      maxResponseBytes: number;
      maxDepth: number;
      observe?: (status: number | 'error' | Stop) => void;
      /** which backend this is, in its calls' spans (default v1) */
      backend?: 'v1' | 'issuer';
    },
  ) {
    this.server = upstreamServer(v1.origin);
  }

  async call(req: V1Request, caller: V1Caller): Promise<V1Answer> {
    return this.parse(await this.fetchText(req, caller), req.maxDepth);
  }

  /** The answer as v1 sent it, not yet parsed: a list can tell from its text that it saw the same answer before. */
  async fetchText(req: V1Request, caller: V1Caller): Promise<V1Text> {
    const { signal } = caller;
    if (signal?.aborted) throw abortReason(signal);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (caller.authorization) headers.authorization = caller.authorization;
    if (caller.requestId) headers['x-request-id'] = caller.requestId;
    if (caller.trace) Object.assign(headers, caller.trace);
    let body: string | undefined;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    } else if (req.form !== undefined) {
      body = encodeQuery(req.form).slice(1);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    let status: number;
    let text: string;
    try {
      const answer = await wholeAnswer(this.dispatcher, {
        method: req.method,
        path: `${this.v1.basePath}${req.path}${encodeQuery(req.query)}`,
        headers,
        body: body ?? null,
        ...callDeadline(this.opts.timeoutMs),
        life: signal,
        spans: caller.spans?.call({
          backend: this.opts.backend ?? 'v1',
          protocol: 'http',
          method: req.method,
          target: `${this.v1.origin}${this.v1.basePath}${req.path}`,
          purpose: caller.purpose,
          server: this.server,
        }),
      });
      status = answer.status;
      text = utf8Text(answer.body);
    } catch (err) {
      if (signal?.aborted) {
        this.opts.observe?.(stopOfSignal(signal));
        throw abortReason(signal);
      }
      this.opts.observe?.('error');
      throw transportError(err, this.opts.maxResponseBytes, 'the v1 backend');
    }
    this.opts.observe?.(status);
    return { status, text };
  }

  /** An answer's text parsed: prototype-safe, no deeper than `maxDepth` (default: the client's limit). */
  parse(answer: V1Text, maxDepth = this.opts.maxDepth): V1Answer {
    const { status, text } = answer;
    if (text === '') return { status, body: {} };
    if (nestsDeeperThan(text, maxDepth)) {
      throw apiError('V1_ANSWER_TOO_DEEP', { limit: maxDepth, status });
    }
    try {
      return { status, body: sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) };
    } catch {
      throw apiError('V1_ANSWER_NOT_JSON', { status });
    }
  }
}
