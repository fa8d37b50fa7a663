import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { bufferedLogStream } from '../../src/server/buffered-log-stream.js';

describe('buffered log stream', () => {
  it('holds short lines back, writes them within a second, and all of them on flushSync', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'v2proxy-logs-')), 'out.log');
    const fd = openSync(path, 'a');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stream = bufferedLogStream(fd);
    try {
      stream.write('{"msg":"one"}\n');
      expect(readFileSync(path, 'utf8')).toBe('');
      const written = once(stream, 'write');
      vi.advanceTimersByTime(1000);
      await written;
      expect(readFileSync(path, 'utf8')).toBe('{"msg":"one"}\n');
      stream.write('{"msg":"two"}\n');
      stream.flushSync();
      expect(readFileSync(path, 'utf8')).toBe('{"msg":"one"}\n{"msg":"two"}\n');
    } finally {
      vi.useRealTimers();
      stream.destroy(); // closes the file too
    }
  });
});
