import type { FastifyInstance } from 'fastify';
import type { ResolvedSettings } from '../config/settings-schema.js';
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import type { Rollout } from '../rollout/start-rollout.js';
import type { FleetDiffReport } from '../shadow/fleet-diff-report.js';
import { QuietGate } from '../shadow/quiet-gate.js';
import { RecordFile } from '../shadow/record-file.js';
import { ReplicaDiffReport } from '../shadow/replica-diff-report.js';
import { ShadowRunner } from '../shadow/shadow-runner.js';
import { WriteBook } from '../shadow/write-book.js';
import { WriteVerifier } from '../shadow/write-verifier.js';
import type { Part } from './part-list.js';

export interface Shadowing extends Part {
  /** the moments without client requests that shadow and verification work waits for */
  gate: QuietGate;
  diffs: ReplicaDiffReport;
  /** with a native backend: shadow reads, and the writes read back and checked */
  shadow: ShadowRunner | undefined;
  verifier: WriteVerifier | undefined;
  /** RECORD_FILE: a sample of the exchanges, for a replay */
  record: RecordFile | undefined;
}

/**
 * Side-by-side work off the request path: shadow reads of both sides compared, a share of writes
 * read back, both booked in the diff report (sent to the fleet's with REDIS_URL), and the
 * recording. Closed before the backends: what is in flight finishes (or stops at the drain's
 * deadline), the last bookings are sent, then the recording ends.
 */
export function openShadowing(
  settings: ResolvedSettings,
  app: FastifyInstance,
  metrics: ProxyMetrics,
  deps: { native: boolean; rollout: Rollout; fleetReport: FleetDiffReport | undefined; onApplied(listener: () => void): void },
): Shadowing {
  const gate = new QuietGate();
  const diffs = new ReplicaDiffReport({
    sampleValues: settings.diffSampleValues,
    fleet: deps.fleetReport,
    resetAt: () => deps.rollout.control.snapshot.doc.diffReset?.at,
  });
  // an operator's reset of the diff report, followed the moment it is in force here
  deps.onApplied(() => void diffs.followReset().catch(() => undefined));
  diffs.start();
  const shadow = deps.native
    ? new ShadowRunner({
        maxInflight: settings.shadowMaxInflight,
        startDelayMs: 2,
        book: diffs.book,
        outcome: (resource, operation, outcome) => metrics.shadow.inc({ resource, operation, outcome }),
      })
    : undefined;
  // a share of a route's writes read back and checked, booked with the shadow's reads
  const verifier = deps.native
    ? new WriteVerifier({
        maxInflight: settings.verifyMaxInflight,
        delayMs: settings.verifyDelayMs,
        retries: settings.verifyRetries,
        book: new WriteBook(diffs.book),
        quiet: () => gate.wait(),
        outcome: (resource, operation, outcome, failing) => {
          metrics.verifications.inc({ resource, operation, outcome });
          for (const check of failing ?? []) metrics.writeDifferences.inc({ resource, operation, check });
        },
      })
    : undefined;
  const record = settings.recordFile
    ? new RecordFile(settings.recordFile, {
        samplePercent: settings.recordSample,
        onError: (err) => app.log.error({ err }, `RECORD_FILE ${settings.recordFile} cannot be written; recording stops`),
      })
    : undefined;
  return {
    name: 'shadowing',
    gate,
    diffs,
    shadow,
    verifier,
    record,
    close: async () => {
      await shadow?.idle();
      await verifier?.idle();
      await diffs.close();
      await record?.close();
    },
  };
}
