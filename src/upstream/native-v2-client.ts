import { Pool, errors as undiciErrors } from 'undici';
import { ApiError } from '../errors/api-error.js';
import { GrpcCode } from '../errors/grpc-codes.js';
import { v1Origin } from './v1-origin.js';

export interface NativeRequest {
  method: string;
  /** path and query as the client sent them */
  url: string;
  authorization: string | undefined;
  requestId: string;
  contentType: string | undefined;
  body: string | undefined;
}

export interface NativeAnswer {
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * The native v2 backend, reached as a faithful pass-through: the request goes as the client sent it
 * (method, path, query, body, Authorization, x-request-id) and the answer comes back byte for byte,
 * bounded in size. No answer at all is an ApiError (14 unreachable, 4 too slow).
 */
export class NativeV2Client {
  private readonly pool: Pool;
  private readonly basePath: string;

  constructor(
    baseUrl: string,
    private readonly opts: { timeoutMs: number; maxResponseBytes: number; observe?: (status: number | 'error') => void },
  ) {
    const origin = v1Origin(baseUrl);
    this.basePath = origin.basePath;
    this.pool = new Pool(origin.origin, { connections: 128, keepAliveTimeout: 30_000, maxResponseSize: opts.maxResponseBytes });
  }

  async forward(req: NativeRequest): Promise<NativeAnswer> {
    const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': req.requestId };
    if (req.authorization) headers.authorization = req.authorization;
    if (req.body !== undefined) headers['content-type'] = req.contentType ?? 'application/json';
    try {
      const res = await this.pool.request({
        method: req.method as 'GET',
        path: `${this.basePath}${req.url}`,
        headers,
        body: req.body ?? null,
        headersTimeout: this.opts.timeoutMs,
        bodyTimeout: this.opts.timeoutMs,
      });
      const body = Buffer.from(await res.body.arrayBuffer());
      this.opts.observe?.(res.statusCode);
      const type = res.headers['content-type'];
      return { status: res.statusCode, contentType: Array.isArray(type) ? type[0] : type, body };
    } catch (err) {
      this.opts.observe?.('error');
      const e = err as { code?: string };
      if (e.code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
        throw new ApiError(GrpcCode.UNAVAILABLE, `the native v2 backend sent more than ${this.opts.maxResponseBytes} bytes`);
      }
      if (TIMEOUTS.has(e.code ?? '') || err instanceof undiciErrors.RequestAbortedError) {
        throw new ApiError(GrpcCode.DEADLINE_EXCEEDED, 'the native v2 backend did not answer in time');
      }
      throw new ApiError(GrpcCode.UNAVAILABLE, 'the native v2 backend is unreachable');
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
