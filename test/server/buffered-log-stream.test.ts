import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { destination } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { BatchedLogStream, type LogSink } from '../../src/server/buffered-log-stream.js';

const logFile = () => join(mkdtempSync(join(tmpdir(), 'v2proxy-logs-')), 'out.log');

describe('buffered log stream', () => {
  it('holds short lines back, writes them within a second, and all of them on flushSync', async () => {
    const path = logFile();
    const sink = destination({ dest: openSync(path, 'a'), sync: false });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stream = new BatchedLogStream(sink);
    try {
      stream.write('{"msg":"one"}\n');
      expect(readFileSync(path, 'utf8')).toBe('');
      const written = once(sink, 'write');
      vi.advanceTimersByTime(1000);
      await written;
      expect(readFileSync(path, 'utf8')).toBe('{"msg":"one"}\n');
      stream.write('{"msg":"two"}\n');
      stream.flushSync();
      expect(readFileSync(path, 'utf8')).toBe('{"msg":"one"}\n{"msg":"two"}\n');
    } finally {
      stream.close();
      vi.useRealTimers();
      sink.destroy(); // closes the file too
    }
  });

  it('hands the sink one text per batch, in order, and after close each line as it comes', () => {
    const texts: string[] = [];
    const sink: LogSink = { write: (text: string) => texts.push(text), flushSync: () => undefined };
    const stream = new BatchedLogStream(sink, 100);
    const line = (i: number) => `{"msg":"line ${String(i).padStart(3, '0')}","pad":"${'x'.repeat(10)}"}\n`; // 39 characters
    for (let i = 0; i < 7; i += 1) stream.write(line(i));
    // 39, 78, 117: the third line fills a batch
    expect(texts).toEqual([line(0) + line(1) + line(2), line(3) + line(4) + line(5)]);
    stream.close();
    expect(texts[2]).toBe(line(6));
    stream.write(line(7));
    expect(texts).toHaveLength(4);
    expect(texts.join('')).toBe(Array.from({ length: 8 }, (_, i) => line(i)).join(''));
  });

  it('writes the lines it holds when the process exits without closing it', () => {
    const path = logFile();
    const module = fileURLToPath(new URL('../../src/server/buffered-log-stream.ts', import.meta.url));
    const script = `
      import { openSync } from 'node:fs';
      const { bufferedLogStream } = await import(${JSON.stringify(module)});
      const stream = bufferedLogStream(openSync(${JSON.stringify(path)}, 'a'));
      stream.write('{"msg":"last words"}\\n');
      process.exit(0);`;
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'pipe' });
    expect(readFileSync(path, 'utf8')).toBe('{"msg":"last words"}\n');
  });
});
