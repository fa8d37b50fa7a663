import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';

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

/** A free loopback port (nothing listens there once this returns). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RedisOptions {
  /** a port of its own (default: a free one) */
  port?: number;
  /** keep the data in this folder, appending every write to disk (appendonly, fsync always): it survives a restart */
  persistIn?: string;
  /** clients must AUTH with it (requirepass) */
  password?: string;
}

/** A real Redis server of its own on loopback, which a test can stop, restart, pause (SIGSTOP) and resume. */
export class RedisServer {
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly opts: RedisOptions,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(opts: RedisOptions = {}): Promise<RedisServer> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const server = new RedisServer(opts.port ?? (await freePort()), opts);
      if (await server.launch()) return server;
      if (opts.port !== undefined) break;
    }
    throw new Error('redis-server did not start');
  }

  private args(): string[] {
    const persistence = this.opts.persistIn
      ? ['--dir', this.opts.persistIn, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '']
      : ['--save', '', '--appendonly', 'no'];
    const auth = this.opts.password ? ['--requirepass', this.opts.password] : [];
    return ['--port', String(this.port), '--bind', '127.0.0.1', ...persistence, ...auth];
  }

  private async launch(): Promise<boolean> {
    const child = spawn(BINARY, this.args(), { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 5_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
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
    if (!ready) {
      child.kill('SIGKILL');
      return false;
    }
    this.child = child;
    return true;
  }

  /** Stops the server (its clients see the connection drop); `restart` brings it back on the same port. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    // a paused server cannot act on SIGTERM
    child.kill('SIGCONT');
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  async restart(): Promise<void> {
    await this.stop();
    if (!(await this.launch())) throw new Error('redis-server did not start again');
  }

  /** Freezes the server: connections stay open, nothing is answered. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  /** Freezes the server and resolves once the kernel shows it stopped (nothing sent after this runs before `resume`). */
  async paused(): Promise<void> {
    this.pause();
    const pid = this.child?.pid;
    for (let i = 0; i < 200 && pid !== undefined; i += 1) {
      // the state is the field after the command's name in parentheses
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
      if (state === 'T' || state === 't') return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('redis-server did not stop');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  close(): Promise<void> {
    return this.stop();
  }
}

/** A real Redis server of its own on a free loopback port, in memory only, stopped by `close`. */
export function startRedisServer(opts: RedisOptions = {}): Promise<RedisServer> {
  return RedisServer.start(opts);
}
