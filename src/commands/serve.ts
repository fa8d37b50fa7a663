import type { DestinationStream } from 'pino';
import { resolveSettings } from '../config/load-settings.js';
import type { ResolvedSettings, Settings } from '../config/settings-schema.js';
import { buildProxyApp } from '../server/build-proxy-app.js';
import { Lifecycle } from '../server/lifecycle.js';

export interface RunningProxy {
  url: string;
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
}

/** Starts the proxy in front of the v1 backend at V1_BASE_URL. */
export async function serve(settings: Settings, opts: ServeOptions = {}): Promise<RunningProxy> {
  const v1BaseUrl = settings.v1BaseUrl;
  if (v1BaseUrl === undefined) {
    throw new StartError('V1_BASE_URL is not set: `v2proxy serve` needs the v1 backend (`v2proxy demo` runs the proxy on its embedded emulator)');
  }
  const resolved = resolveSettings(settings, v1BaseUrl, settings.port);
  const lifecycle = new Lifecycle();
  const app = await buildProxyApp(resolved, opts.logStream ? { logStream: opts.logStream, lifecycle } : { lifecycle });
  await app.listen({ host: settings.host, port: settings.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  Object.assign(resolved, resolveSettings(settings, v1BaseUrl, port, undefined, resolved.adminToken));
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;

  async function end(delayMs: number): Promise<void> {
    await lifecycle.drain({ delayMs, timeoutMs: settings.shutdownTimeoutMs }, () => app.close(), {
      info: (message) => app.log.info(message),
      warn: (message) => app.log.warn(message),
    });
    await opts.afterClose?.();
  }

  return {
    url: `${settings.tlsCertFile ? 'https' : 'http'}://${host}:${port}`,
    settings: resolved,
    adminTokenGenerated: settings.adminToken === undefined,
    drain: () => end(settings.shutdownDelayMs),
    close: () => end(0),
  };
}

/** What `serve` prints: where the proxy listens and what it is in front of. */
export function serveBanner(proxy: RunningProxy): string[] {
  const s = proxy.settings;
  const lines = [`v2proxy listening on ${proxy.url} (v1 backend: ${s.v1BaseUrl}; native v2 backend: ${s.v2BaseUrl ?? 'none'})`];
  // a token the operator supplied is theirs to know; only a generated one is shown
  if (proxy.adminTokenGenerated) lines.push(`admin token (/admin, generated): ${s.adminToken}`);
  if (s.rolloutFile) lines.push(`rollout file: ${s.rolloutFile}`);
  return lines;
}
