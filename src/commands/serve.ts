import type { DestinationStream } from 'pino';
import { newAdminToken, operatorsConfigured, resolveSettings } from '../config/load-settings.js';
import type { ResolvedSettings, Settings } from '../config/settings-schema.js';
import { shownUrl } from '../net/shown-url.js';
import { buildProxyApp } from '../app/build-proxy-app.js';
import { Lifecycle } from '../server/lifecycle.js';

export interface RunningProxy {
  url: string;
  /** where the admin surface is: `url`, or the ADMIN_PORT listener */
  adminUrl: string;
  settings: ResolvedSettings;
  /** whether the admin token was made here (and so may be printed) */
  adminTokenGenerated: boolean;
  /** what SIGTERM does: not ready at once, serving for SHUTDOWN_DELAY_MS, then closing within SHUTDOWN_TIMEOUT_MS */
  drain(): Promise<void>;
  /** the same drain without the delay */
  close(): Promise<void>;
}

/** A start refused for a setting (a missing V1_BASE_URL): the CLI says it in one line. */
export class StartError extends Error {
  override readonly name = 'StartError';
}

export interface ServeOptions {
  logStream?: DestinationStream;
  /** run after the proxy has closed (the demo's emulator) */
  afterClose?: () => Promise<void>;
  /** the demo: an admin token is made when none is configured, with REDIS_URL too */
  demo?: boolean;
}

/** Starts the proxy in front of the v1 backend at V1_BASE_URL. */
export async function serve(settings: Settings, opts: ServeOptions = {}): Promise<RunningProxy> {
  const v1BaseUrl = settings.v1BaseUrl;
  if (v1BaseUrl === undefined) {
    throw new StartError('V1_BASE_URL is not set: `v2proxy serve` needs the v1 backend (`v2proxy demo` runs the proxy on its embedded emulator)');
  }
  // a made token is printed: only where no other replica would make another (no fleet), or for the demo
  const made = !operatorsConfigured(settings) && (opts.demo === true || settings.redisUrl === undefined) ? newAdminToken() : undefined;
  const resolved = resolveSettings(settings, v1BaseUrl, settings.port, undefined, made);
  const lifecycle = new Lifecycle();
  const app = await buildProxyApp(resolved, opts.logStream ? { logStream: opts.logStream, lifecycle } : { lifecycle });
  await app.listen({ host: settings.host, port: settings.port });
  const adminHost = settings.adminHost ?? settings.host;
  if (app.adminApp) await app.adminApp.listen({ host: adminHost, port: settings.adminPort ?? 0 });
  const portOf = (server: typeof app.server, fallback: number) => {
    const address = server.address();
    return typeof address === 'object' && address ? address.port : fallback;
  };
  const port = portOf(app.server, settings.port);
  Object.assign(resolved, resolveSettings(settings, v1BaseUrl, port, undefined, made));
  const bracket = (h: string) => (h.includes(':') ? `[${h}]` : h);
  const host = bracket(settings.host);
  const scheme = settings.tlsCertFile ? 'https' : 'http';

  async function end(delayMs: number): Promise<void> {
    await lifecycle.drain({ delayMs, timeoutMs: settings.shutdownTimeoutMs }, () => app.close(), {
      info: (message) => app.log.info(message),
      warn: (message) => app.log.warn(message),
    });
    await opts.afterClose?.();
  }

  const url = `${scheme}://${host}:${port}`;
  return {
    url,
    adminUrl: app.adminApp ? `http://${bracket(adminHost)}:${portOf(app.adminApp.server, settings.adminPort ?? 0)}` : url,
    settings: resolved,
    adminTokenGenerated: made !== undefined,
    drain: () => end(settings.shutdownDelayMs),
    close: () => end(0),
  };
}

/** What `serve` prints: where the proxy listens and what it is in front of. */
export function serveBanner(proxy: RunningProxy): string[] {
  const s = proxy.settings;
  const lines = [
    `v2proxy listening on ${proxy.url} (v1 backend: ${shownUrl(s.v1BaseUrl)}; native v2 backend: ${s.v2BaseUrl ? shownUrl(s.v2BaseUrl) : 'none'})`,
  ];
  if (proxy.adminUrl !== proxy.url) lines.push(`admin surface (/admin, /metrics) on ${proxy.adminUrl}`);
  // a token the operator supplied is theirs to know; only a generated one is shown
  if (proxy.adminTokenGenerated) lines.push(`admin token (/admin, generated): ${s.adminToken}`);
  else if (s.adminToken === undefined && s.adminTokens === undefined && s.adminTokensFile === undefined)
    lines.push('admin API: off (no operator is configured)');
  if (s.rolloutFile) lines.push(`rollout file: ${s.rolloutFile}`);
  return lines;
}
