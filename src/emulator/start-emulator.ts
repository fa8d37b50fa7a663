import { randomBytes } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import { DEMO_ORG, DEMO_SEED } from './demo-seed.js';
import { buildEmulatorApp } from './emulator-app.js';
import type { FaultRules } from './fault-rules.js';
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
  /** serve the native v2beta1 surface on its own port (default true; SIM_V2=false turns it off) */
  v2?: boolean;
  /** port of the native v2 surface (0 = a free port) */
  v2Port?: number;
  /** what a fault rule's `rate` is drawn with (tests give a seeded one; default Math.random) */
  random?: () => number;
}

export interface RunningEmulator {
  url: string;
  /** the native v2beta1 surface, when it runs */
  v2Url: string | undefined;
  devToken: string;
  /** the demo organization's uid, when the demo data is loaded */
  demoOrg: string | undefined;
  store: Store;
  stats: RequestStats;
  faults: FaultRules;
  close(): Promise<void>;
}

/** Loads the seed (or the demo data), builds the emulator and listens on host:port. */
export async function startEmulator(settings: EmulatorSettings): Promise<RunningEmulator> {
  const now = settings.now ?? Date.now;
  const store = settings.seedFile ? loadSeedFile(settings.seedFile, now()) : storeFromSeed(DEMO_SEED, now());
  const devToken = settings.devToken ?? `dev-${randomBytes(24).toString('base64url')}`;
  let url = '';
  const { app, v2app, stats, faults } = buildEmulatorApp({
    store,
    devToken,
    trustedIssuers: settings.trustedIssuers,
    publicUrl: () => url,
    now,
    ...(settings.random ? { random: settings.random } : {}),
    v2: settings.v2 !== false,
    ...(settings.logger === undefined ? {} : { logger: settings.logger }),
  });
  await app.listen({ host: settings.host, port: settings.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  url = `http://${host}:${port}`;
  let v2Url: string | undefined;
  if (v2app) {
    try {
      await v2app.listen({ host: settings.host, port: settings.v2Port ?? 0 });
    } catch (err) {
      await app.close();
      throw err;
    }
    const a = v2app.server.address();
    v2Url = `http://${host}:${typeof a === 'object' && a ? a.port : 0}`;
  }
  return {
    url,
    v2Url,
    devToken,
    demoOrg: settings.seedFile ? undefined : DEMO_ORG,
    store,
    stats,
    faults,
    close: async () => {
      await Promise.all([app.close(), v2app?.close()]);
    },
  };
}
