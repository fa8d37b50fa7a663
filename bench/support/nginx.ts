// nginx as a reverse proxy in front of a backend, for the passthrough bench: Debian's package when
// it is installed, one worker, keep-alive upstream connections, the access log on (as in production).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childPids } from './process-cpu.js';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RunningNginx {
  url: string;
  /** the worker, whose CPU is nginx's per-request cost */
  workerPid: number;
  stop(): void;
}

/** Starts nginx in front of `upstream` (http://host:port), or undefined when it is not installed. */
export async function startNginx(upstream: string): Promise<RunningNginx | undefined> {
  if (!existsSync(NGINX)) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'v2proxy-bench-nginx-'));
  mkdirSync(join(dir, 'tmp'));
  const port = await freePort();
  const target = new URL(upstream);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
master_process on;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  upstream v1 { server ${target.host}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://v1;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await fetch(`${url}/`);
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill();
        throw new Error(`nginx did not start (see ${dir}/error.log)`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const [workerPid] = childPids(child.pid as number);
  if (workerPid === undefined) throw new Error('nginx has no worker');
  return { url, workerPid, stop: () => child.kill('SIGQUIT') };
}
