import type { FastifyInstance } from 'fastify';
import type { ResolvedSettings } from '../config/settings-schema.js';
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { shownUrl } from '../net/shown-url.js';
import type { KnownRoutes } from '../rollout/rollout-config.js';
import type { FileRead } from '../rollout/rollout-file-check.js';
import type { RolloutFileReader } from '../rollout/rollout-file-reader.js';
import { rolledBackAt } from '../rollout/rollout-snapshot.js';
import { drifted } from '../rollout/rollout-status.js';
import { shownState } from '../rollout/route-progress.js';
import { type Rollout, startRollout } from '../rollout/start-rollout.js';
import type { StateStoreCheck } from '../server/health-routes.js';
import { WebhookSender } from '../upstream/webhook-sender.js';
import type { Part } from './part-list.js';
import type { Stores } from './stores-part.js';

export interface RolloutPart extends Part {
  rollout: Rollout;
  /** listens for a newer control state in force here (an operator's diff report reset follows it) */
  onApplied(listener: () => void): void;
  /** with a fleet: Redis answers and the fleet's state has been read (a restart comes up killed if the fleet is) */
  ready: StateStoreCheck | undefined;
}

export interface RolloutPartOptions {
  stores: Stores;
  known: KnownRoutes;
  /** the rollout file as read at start, and its reader */
  file: { first: FileRead | undefined; reader: RolloutFileReader | undefined };
  now(): number;
  /** follow the file for changes and SIGHUP */
  watch: boolean;
  webhookBackoffMs: number;
}

/** The rollout's figures on /metrics, read from its snapshot when scraped. */
function rolloutGauges(metrics: ProxyMetrics, rollout: Rollout, now: () => number): void {
  const snapshot = () => rollout.control.snapshot;
  metrics.rolloutGauges({
    killSwitch: () => snapshot().killSwitch,
    rolledBack: () => {
      const at = now();
      return snapshot()
        .routes.filter((r) => rolledBackAt(r, at))
        .map((r) => ({ resource: r.route.resource, operations: r.route.operations.join(',') }));
    },
    fleet: () => rollout.fleetStatus(),
    drift: () => drifted(snapshot()),
    progressive: () =>
      snapshot()
        .routes.filter((r) => r.schedule)
        .map((r) => ({
          resource: r.route.resource,
          operations: r.route.operations.join(','),
          state: shownState(r.progress),
          step: (r.progress?.step ?? 0) + 1,
          native: r.share.native,
        })),
  });
}

/**
 * The rollout: its control state (the fleet's with REDIS_URL, read before this replica is ready,
 * then followed), the guard, the progressive analysis, the traffic figures, and the webhook its
 * changes are sent to. Closed after what feeds it: the counts of the last moments are sent (or
 * said lost), then the webhook's last notices.
 */
export async function openRollout(settings: ResolvedSettings, app: FastifyInstance, metrics: ProxyMetrics, opts: RolloutPartOptions): Promise<RolloutPart> {
  // the progressive rollout's notices: sent off the request path, in order, retried
  const webhook = settings.rolloutWebhookUrl
    ? new WebhookSender({
        url: settings.rolloutWebhookUrl,
        timeoutMs: settings.rolloutWebhookTimeoutMs,
        backoffMs: opts.webhookBackoffMs,
        attempts: 5,
        maxQueued: 1_000,
        outcome: (outcome) => metrics.webhook.inc({ outcome }),
        failed: (message) => app.log.error(message),
      })
    : undefined;
  const applied = new Set<() => void>();
  const rollout = await startRollout({
    file: settings.rolloutFile,
    first: opts.file.first,
    reader: opts.file.reader,
    known: opts.known,
    // as every URL the proxy shows: without credentials, query or fragment
    nativeBackend: settings.v2BaseUrl === undefined ? undefined : shownUrl(settings.v2BaseUrl),
    overrideSecret: settings.rolloutOverrideSecret,
    now: opts.now,
    stores: opts.stores.rollout,
    events: {
      info: (message) => app.log.info(message),
      warn: (message) => app.log.warn(message),
      error: (message) => app.log.error(message),
      changed: (records) => {
        for (const r of records) {
          const to = r.after?.state;
          if (r.route && r.action.startsWith('route.') && !r.action.endsWith('-requested') && typeof to === 'string')
            metrics.progressChanges.inc({ resource: r.route.resource, to });
          webhook?.send({ type: 'rollout.change', ...r });
        }
      },
      rollback: (route) => metrics.rollbacks.inc({ resource: route.route.resource }),
      reload: (result) => metrics.reloads.inc({ result }),
      applied: () => {
        for (const listener of applied) listener();
      },
    },
  });
  rolloutGauges(metrics, rollout, opts.now);
  if (opts.watch) rollout.watch();
  const answers = opts.stores.answers;
  return {
    name: 'rollout',
    rollout,
    onApplied: (listener) => applied.add(listener),
    ready: answers
      ? async () => {
          const answered = await answers();
          if (!answered.ok) return answered;
          if (!rollout.fleetStatus()?.synced) await rollout.sync?.sync();
          return rollout.fleetStatus()?.synced ? answered : { ok: false, reason: 'the fleet state is not read yet' };
        }
      : undefined,
    close: async () => {
      await rollout.close();
      await webhook?.close(1_000);
    },
  };
}
