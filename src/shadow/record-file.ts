import { createWriteStream, type WriteStream } from 'node:fs';

export interface RecordedRead {
  time: string;
  method: string;
  url: string;
  status: number;
  requestId: string;
  /** the door it came by (a replay reads every line over REST) */
  protocol?: 'rest' | 'grpc';
  /** `override`: an operator forced its side (it counts toward no guard, analysis or diff gate) */
  decision?: 'override';
}

/**
 * `RECORD_FILE`: each v2 read the proxy serves (a sampled share of them) as one JSON line
 * `{time, method, url, status, requestId, protocol}` (and `decision: "override"` when an operator forced its side; a gRPC read in its REST form), appended. Never a token, a header or a body.
 */
export class RecordFile {
  private readonly stream: WriteStream;
  private failed = false;

  constructor(
    readonly path: string,
    private readonly opts: { samplePercent: number; random?: () => number; onError: (err: Error) => void },
  ) {
    this.stream = createWriteStream(path, { flags: 'a' });
    this.stream.on('error', (err) => {
      if (!this.failed) opts.onError(err);
      this.failed = true;
    });
  }

  record(read: RecordedRead): void {
    if (this.failed) return;
    if ((this.opts.random ?? Math.random)() * 100 >= this.opts.samplePercent) return;
    this.stream.write(`${JSON.stringify(read)}\n`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(resolve));
  }
}
