// nginx as the load balancer in front of proxy replicas: Debian's package, one worker, kept-alive
// upstream connections, nginx's default retries (a read goes to the next replica on a connection
// error; a POST or PATCH already sent does not).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis-server.js';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const HAVE_NGINX = existsSync(NGINX);
// a skipped rolling-restart test is a written reason on a developer's machine, never in CI
if (!HAVE_NGINX && process.env.CI) throw new Error(`CI must have nginx at ${NGINX} (.ci/run installs Debian's nginx)`);

export interface NginxOptions {
  /** host:port of each upstream server */
  upstreams: readonly string[];
  port: number;
  dir: string;
  /** how long nginx keeps an idle upstream connection (its default: 60s) */
  keepaliveTimeout?: string;
  /** how long an upstream that failed is left out (its default: 10s) */
  failTimeout?: string;
  accessLog?: boolean;
}

/** The configuration: one worker, a keep-alive upstream pool, HTTP/1.1 to the upstreams. */
export function nginxConfig(o: NginxOptions): string {
  return `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
master_process on;
pid ${o.dir}/nginx.pid;
error_log ${o.dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log ${o.accessLog ? `${o.dir}/access.log` : 'off'};
  client_body_temp_path ${o.dir}/tmp/body;
  proxy_temp_path ${o.dir}/tmp/proxy;
  fastcgi_temp_path ${o.dir}/tmp/fastcgi;
  uwsgi_temp_path ${o.dir}/tmp/uwsgi;
  scgi_temp_path ${o.dir}/tmp/scgi;
  upstream replicas {
${o.upstreams.map((u) => `    server ${u}${o.failTimeout ? ` fail_timeout=${o.failTimeout}` : ''};`).join('\n')}
    keepalive 64;${o.keepaliveTimeout ? `\n    keepalive_timeout ${o.keepaliveTimeout};` : ''}
  }
  server {
    listen 127.0.0.1:${o.port};
    location / {
      proxy_pass http://replicas;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`;
}

export interface RunningNginx {
  url: string;
  child: ChildProcess;
  /** nginx's error log so far */
  errors(): string;
  stop(): void;
}

/** Starts nginx with this configuration (its `dir` and `port` made here) and waits until it answers. */
export async function startNginx(o: Omit<NginxOptions, 'dir' | 'port'>, prefix = 'v2proxy-nginx-'): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'tmp'));
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig({ ...o, dir, port }));
  const child = spawn(NGINX, ['-p', dir, '-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill();
        throw new Error(`nginx did not start (see ${dir}/error.log)`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const log = join(dir, 'error.log');
  return { url, child, errors: () => (existsSync(log) ? readFileSync(log, 'utf8') : ''), stop: () => child.kill('SIGQUIT') };
}
