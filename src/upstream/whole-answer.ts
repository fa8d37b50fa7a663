import type { Dispatcher } from 'undici';
import type { Abort, LegacyHandler, LifeOption } from './backend-call.js';

/** A backend's answer read whole: status, its content type, and the body's bytes. */
export interface WholeAnswer {
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

/**
 * Collects one answer from undici's handler calls: the status, the content type, the chunks joined
 * once at the end. What `request()` then `body.text()` would give, without a body stream, its
 * events and a promise per step: the path of every call the v2 surface makes to v1.
 */
class WholeAnswerHandler implements LegacyHandler {
  private status = 0;
  private contentType: string | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly resolve: (answer: WholeAnswer) => void,
    private readonly reject: (err: Error) => void,
  ) {}

  onConnect(_abort: Abort): void {}

  onHeaders(statusCode: number, raw: Buffer[]): boolean {
    this.status = statusCode;
    this.contentType = undefined;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i] as Buffer;
      // 12 bytes: only `content-type` can match, compared without case
      if (name.length === 12 && name.toString('latin1').toLowerCase() === 'content-type') {
        this.contentType = (raw[i + 1] as Buffer).toString('latin1');
        break;
      }
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }

  onComplete(): void {
    const body = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
    this.resolve({ status: this.status, contentType: this.contentType, body });
  }

  onError(err: Error): void {
    this.reject(err);
  }
}

/** One call through `dispatcher`, its answer read whole (bounded by the dispatcher's own size limit). */
export function wholeAnswer(dispatcher: Dispatcher, opts: Dispatcher.DispatchOptions & LifeOption): Promise<WholeAnswer> {
  // a refusal comes back as onError; a dispatcher that throws instead rejects the promise all the same
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(opts, new WholeAnswerHandler(resolve, reject));
  });
}

/** An answer's body as text: UTF-8, a leading byte order mark dropped (as undici's `text()` does). */
export function utf8Text(body: Buffer): string {
  const bom = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  return body.toString('utf8', bom ? 3 : 0);
}
