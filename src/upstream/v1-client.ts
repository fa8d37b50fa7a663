import { Pool } from 'undici';
import sjson from 'secure-json-parse';
import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import { transportError } from './transport-error.js';
import type { V1Origin } from './v1-origin.js';

export type QueryValues = Record<string, string | readonly string[] | undefined>;

export interface V1Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** path below the v1 base, e.g. `/iam/v1/groups` */
  path: string;
  query?: QueryValues;
  /** a JSON body, or a form (`application/x-www-form-urlencoded`) */
  json?: unknown;
  form?: QueryValues;
  authorization?: string | undefined;
  requestId?: string;
}

export interface V1Answer {
  status: number;
  body: unknown;
  /** size of the answer body, in bytes */
  bytes: number;
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
 * The only client the v2 surface uses to reach v1: one undici pool per origin, a deadline per call,
 * bounded and prototype-safe JSON bodies, and transport failures as stable ApiErrors (14, 4).
 */
export class V1Client {
  private readonly pool: Pool;

  constructor(
    private readonly v1: V1Origin,
    private readonly opts: { timeoutMs: number; maxResponseBytes: number; observe?: (status: number | 'error') => void },
  ) {
    // undici enforces the answer bound itself, so a body can be read in one piece.
    this.pool = new Pool(v1.origin, { connections: 128, keepAliveTimeout: 30_000, maxResponseSize: opts.maxResponseBytes });
  }

  async call(req: V1Request): Promise<V1Answer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (req.authorization) headers.authorization = req.authorization;
    if (req.requestId) headers['x-request-id'] = req.requestId;
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
      const res = await this.pool.request({
        method: req.method,
        path: `${this.v1.basePath}${req.path}${encodeQuery(req.query)}`,
        headers,
        body: body ?? null,
        headersTimeout: this.opts.timeoutMs,
        bodyTimeout: this.opts.timeoutMs,
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      this.opts.observe?.('error');
      throw transportError(err, this.opts.maxResponseBytes, 'the v1 backend');
    }
    this.opts.observe?.(status);
    if (text === '') return { status, body: {}, bytes: 0 };
    try {
      return { status, body: sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }), bytes: Buffer.byteLength(text) };
    } catch {
      throw new ApiError(GrpcCode.UNAVAILABLE, `the v1 backend sent a body that is not JSON (HTTP ${status})`);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
