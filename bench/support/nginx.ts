// nginx as a reverse proxy in front of a backend, for the passthrough bench: Debian's package when
// it is installed, one worker, keep-alive upstream connections, the access log on (as in production).
import { HAVE_NGINX, NGINX, startNginx as startBalancer } from '../../test/support/nginx-balancer.js';
import { childPids } from './process-cpu.js';

export { NGINX };

export interface RunningNginx {
  url: string;
  /** the worker, whose CPU is nginx's per-request cost */
  workerPid: number;
  stop(): void;
}

/** Starts nginx in front of `upstream` (http://host:port), or undefined when it is not installed. */
export async function startNginx(upstream: string): Promise<RunningNginx | undefined> {
  if (!HAVE_NGINX) return undefined;
  const nginx = await startBalancer({ upstreams: [new URL(upstream).host], accessLog: true }, 'v2proxy-bench-nginx-');
  const [workerPid] = childPids(nginx.child.pid as number);
  if (workerPid === undefined) throw new Error('nginx has no worker');
  return { url: nginx.url, workerPid, stop: nginx.stop };
}
