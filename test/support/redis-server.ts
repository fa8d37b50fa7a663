import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

const BINARY = 'redis-server';

/** Whether Debian's redis-server is installed (`.ci/run` installs it; CI fails without it). */
export const HAVE_REDIS = (() => {
  try {
    execFileSync(BINARY, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!HAVE_REDIS && process.env.CI) throw new Error('CI must have redis-server (.ci/run installs Debian redis-server)');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RedisServer {
  url: string;
  close(): Promise<void>;
}

/** A real Redis server of its own on a free loopback port, in memory only, stopped by `close`. */
export async function startRedisServer(): Promise<RedisServer> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = await freePort();
    const child: ChildProcess = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 5_000);
      child.stdout?.on('data', () => {
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (ready) {
      return {
        url: `redis://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    child.kill('SIGKILL');
  }
  throw new Error('redis-server did not start');
}
