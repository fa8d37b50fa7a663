import type { DestinationStream } from 'pino';
import { resolveSettings } from '../config/load-settings.js';
import type { ResolvedSettings, Settings } from '../config/settings-schema.js';
import { type RunningEmulator, startEmulator } from '../emulator/start-emulator.js';
import { buildProxyApp } from '../server/build-proxy-app.js';
import { Lifecycle } from '../server/lifecycle.js';

export interface RunningProxy {
  url: string;
  settings: ResolvedSettings;
  /** the embedded emulator, when no V1_BASE_URL was given */
  emulator: RunningEmulator | undefined;
  /** whether the admin token was made here (and so may be printed) */
  adminTokenGenerated: boolean;
  /** what SIGTERM does: not ready at once, serving for SHUTDOWN_DELAY_MS, then closing within SHUTDOWN_TIMEOUT_MS */
  drain(): Promise<void>;
  /** the same drain without the delay */
  close(): Promise<void>;
}

/** Starts the proxy; with no V1_BASE_URL it first starts the v1 emulator in-process and points at it. */
export async function serve(settings: Settings, opts: { logStream?: DestinationStream } = {}): Promise<RunningProxy> {
  const emulator = settings.v1BaseUrl
    ? undefined
    : await startEmulator({
        host: settings.sim.host,
        port: settings.sim.port,
        seedFile: settings.sim.seedFile,
        devToken: settings.sim.devToken,
        trustedIssuers: settings.sim.trustedIssuers,
        v2: settings.sim.v2,
        v2Port: settings.sim.v2Port,
      });
  const v1BaseUrl = settings.v1BaseUrl ?? (emulator as RunningEmulator).url;
  const resolved = resolveSettings(settings, v1BaseUrl, settings.port, emulator?.v2Url);
  const lifecycle = new Lifecycle();
  let app: Awaited<ReturnType<typeof buildProxyApp>>;
  try {
    app = await buildProxyApp(resolved, opts.logStream ? { logStream: opts.logStream, lifecycle } : { lifecycle });
    await app.listen({ host: settings.host, port: settings.port });
  } catch (err) {
    await emulator?.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  Object.assign(resolved, resolveSettings(settings, v1BaseUrl, port, emulator?.v2Url, resolved.adminToken));
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  return {
    url: `${settings.tlsCertFile ? 'https' : 'http'}://${host}:${port}`,
    settings: resolved,
    emulator,
    adminTokenGenerated: settings.adminToken === undefined,
    drain: () => end(settings.shutdownDelayMs),
    close: () => end(0),
  };

  async function end(delayMs: number): Promise<void> {
    await lifecycle.drain({ delayMs, timeoutMs: settings.shutdownTimeoutMs }, () => app.close(), {
      info: (message) => app.log.info(message),
      warn: (message) => app.log.warn(message),
    });
    await emulator?.close();
  }
}

/** What `npm start` prints: where everything is, and a command to paste. */
export function startBanner(proxy: RunningProxy): string[] {
  const s = proxy.settings;
  const lines = [`v2proxy listening on ${proxy.url} (v1 backend: ${s.v1BaseUrl}; native v2 backend: ${s.v2BaseUrl ?? 'none'})`];
  // a token the operator supplied is theirs to know; only a generated one is shown
  if (s.adminToken !== undefined && proxy.adminTokenGenerated) lines.push(`admin token (/admin, generated): ${s.adminToken}`);
  if (s.rolloutFile) lines.push(`rollout file: ${s.rolloutFile}`);
  const emu = proxy.emulator;
  if (!emu) return lines;
  lines.push(`v1 emulator listening on ${emu.url}`);
  if (emu.v2Url) lines.push(`native v2 emulator listening on ${emu.v2Url}`);
  if (emu.demoOrg) lines.push(`demo organization uid: ${emu.demoOrg}`);
  // a token the operator supplied is never printed; a generated one is theirs only through this banner
  const generated = s.sim.devToken === undefined;
  lines.push(`dev token (superuser on the emulator): ${generated ? emu.devToken : 'the DEV_TOKEN you set'}`);
  const path = emu.demoOrg ? `/iam/v2beta1/groups/${emu.demoOrg}` : '/iam/v2beta1/groups';
  lines.push(`try: curl -s -H "Authorization: Bearer ${generated ? emu.devToken : '$DEV_TOKEN'}" "${proxy.url}${path}"`);
  return lines;
}
