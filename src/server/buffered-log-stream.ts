import { destination } from 'pino';

/**
 * Standard output for log lines, written in batches of up to 4 KiB rather than with one system call
 * per line (that write was about a tenth of a translated Get's CPU), and at least every second, so a
 * line waits at most that long. pino flushes what is left when the process exits.
 */
export function bufferedLogStream(fd = 1): ReturnType<typeof destination> {
  return destination({ dest: fd, minLength: 4096, periodicFlush: 1000, sync: false });
}
