import { type DestinationStream, destination } from 'pino';

/** Where batches go: a sonic-boom writer (pino's destination), or anything that writes and flushes alike. */
export interface LogSink {
  write(text: string): unknown;
  flushSync(): void;
}

/**
 * Log lines written in batches of about 12 KiB rather than with one system call per line (that write
 * was about a tenth of a translated Get's CPU), and at least every second, so a line waits at most
 * that long. (12 KiB: three times fewer writes than 4 KiB, and below the 16 KiB that pino's writer
 * takes in one write.) The lines of a batch are kept in an array and joined once: sonic-boom's own
 * batching (`minLength`) measures its growing string on every line, which flattens it each time, so
 * a 12 KiB batch was copied some forty times over (about 6 KiB of garbage per request).
 * What is left is written when the process exits, and on `flushSync`.
 */
export class BatchedLogStream implements DestinationStream {
  private lines: string[] = [];
  // characters, not bytes: a batch's size need not be exact
  private size = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly onExit = () => this.flushSync();
  private closed = false;

  constructor(
    private readonly sink: LogSink,
    private readonly batchSize = 12 * 1024,
    flushMs = 1000,
  ) {
    this.timer = setInterval(() => this.flush(), flushMs).unref();
    process.on('exit', this.onExit);
  }

  write(line: string): void {
    // a line after close (the last of a stopping server) goes straight on: the sink writes it at exit
    if (this.closed) {
      this.sink.write(line);
      return;
    }
    this.lines.push(line);
    this.size += line.length;
    if (this.size >= this.batchSize) this.flush();
  }

  /** Hands what is held to the sink, which writes it without blocking. */
  flush(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.join('');
    this.lines = [];
    this.size = 0;
    this.sink.write(text);
  }

  /** Writes everything held, here and in the sink, before returning. */
  flushSync(): void {
    this.flush();
    this.sink.flushSync();
  }

  /** Writes what is left and stops the timer and the exit hook; later lines are not batched. */
  close(): void {
    this.flushSync();
    this.closed = true;
    clearInterval(this.timer);
    process.off('exit', this.onExit);
  }
}

/** Standard output (or `fd`) for log lines, batched. */
export function bufferedLogStream(fd = 1): BatchedLogStream {
  return new BatchedLogStream(destination({ dest: fd, sync: false }));
}
