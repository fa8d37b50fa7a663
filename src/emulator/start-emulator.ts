import { randomBytes } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import { DEMO_ORG, DEMO_SEED } from './demo-seed.js';
import { buildEmulatorApp } from './emulator-app.js';
import type { RequestStats } from './request-stats.js';
import { loadSeedFile, storeFromSeed } from './seed-loader.js';
import type { Store } from './store.js';

export interface EmulatorSettings {
  host: string;
  /** 0 = a free port */
  port: number;
  /** a seed file; without it, the demo organization */
  seedFile?: string | undefined;
  /** the superuser token; random when unset */
  devToken?: string | undefined;
  trustedIssuers: readonly string[];
  logger?: FastifyServerOptions['logger'];
  now?: () => number;
}

export interface RunningEmulator {
  url: string;
  devToken: string;
  /** the demo organization's uid, when the demo data is loaded */
  demoOrg: string | undefined;
  store: Store;
  stats: RequestStats;
  close(): Promise<void>;
}

/** Loads the seed (or the demo data), builds the emulator and listens on host:port. */
export async function startEmulator(settings: EmulatorSettings): Promise<RunningEmulator> {
  const now = settings.now ?? Date.now;
  const store = settings.seedFile ? loadSeedFile(settings.seedFile, now()) : storeFromSeed(DEMO_SEED, now());
  const devToken = settings.devToken ?? `dev-${randomBytes(24).toString('base64url')}`;
  let url = '';
  const { app, stats } = buildEmulatorApp({
    store,
    devToken,
    trustedIssuers: settings.trustedIssuers,
    publicUrl: () => url,
    now,
    ...(settings.logger === undefined ? {} : { logger: settings.logger }),
  });
  await app.listen({ host: settings.host, port: settings.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  url = `http://${host}:${port}`;
  return {
    url,
    devToken,
    demoOrg: settings.seedFile ? undefined : DEMO_ORG,
    store,
    stats,
    close: () => app.close(),
  };
}
