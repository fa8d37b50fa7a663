import { Pool } from 'undici';
import { transportError } from './transport-error.js';
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
      throw transportError(err, this.opts.maxResponseBytes, 'the native v2 backend');
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
