import type { FastifyInstance } from 'fastify';
import type { Rollout } from '../rollout/start-rollout.js';
import type { FleetRoster, RosterEntry } from '../stores/fleet-roster.js';
import type { Part } from './part-list.js';

// how often a replica checks in to the fleet's roster, and when a silent one is forgotten
const CHECK_IN_MS = 1_000;
const FORGET_MS = 60_000;

export interface FleetPresence extends Part {
  /** what `/admin/fleet` shows: the live replicas (this replica's own view while Redis is away) */
  view(): Promise<Record<string, unknown>>;
}

/** One replica as `/admin/fleet` shows it: behind the fleet, or silent for longer than a few check-ins, is stale. */
function replicaView(entry: RosterEntry, at: number, version: number, epoch: string) {
  return {
    id: entry.id,
    address: entry.address,
    epoch: entry.epoch,
    version: entry.version,
    rolloutDigest: entry.digest,
    appliedDigest: entry.appliedDigest,
    drift: entry.digest !== '' && entry.appliedDigest !== '' && entry.digest !== entry.appliedDigest,
    checkedAt: new Date(entry.checkedAt).toISOString(),
    uptimeSeconds: Math.round((at - entry.startedAt) / 1000),
    stale: entry.epoch !== epoch || entry.version < version || at - entry.checkedAt > 3 * CHECK_IN_MS,
  };
}

/**
 * This replica in the fleet's roster (with REDIS_URL): it checks in every second with the control
 * state it applied, and leaves it when it shuts down.
 */
export function openFleetPresence(
  app: FastifyInstance,
  rollout: Rollout,
  roster: FleetRoster | undefined,
  self: { id: string; startedAt: number },
): FleetPresence {
  const selfEntry = (): RosterEntry => {
    const a = app.server.address();
    const address = typeof a === 'object' && a ? `${a.address.includes(':') ? `[${a.address}]` : a.address}:${a.port}` : 'not listening';
    const s = rollout.control.snapshot;
    return { ...self, address, epoch: s.head.epoch, version: s.head.version, digest: s.local.digest, appliedDigest: s.digest, checkedAt: Date.now() };
  };
  const checkIn = () => roster?.checkIn(selfEntry());
  const checkingIn = roster ? setInterval(checkIn, CHECK_IN_MS) : undefined;
  checkingIn?.unref();
  app.addHook('onReady', async () => checkIn());
  return {
    name: 'fleet presence',
    view: async () => {
      const at = Date.now();
      const head = rollout.control.snapshot.head;
      const sync = rollout.fleetStatus();
      if (!roster) return { version: head.version, self: self.id, replicas: [], note: 'a single replica: REDIS_URL is not set' };
      const own = { version: head.version, epoch: head.epoch, self: self.id, staleSeconds: sync?.staleSeconds ?? null, stale: sync?.stale ?? false };
      try {
        const entries = await roster.list(at, FORGET_MS);
        return { ...own, roster: 'known', replicas: entries.map((e) => replicaView({ ...selfEntry(), ...e }, at, head.version, head.epoch)) };
      } catch (err) {
        // Redis away: what this replica knows of itself, and that the others are unknown
        return {
          ...own,
          roster: 'unknown',
          note: `Redis does not answer (${(err as Error).message}): the other replicas are unknown; this replica serves on the control state it applied`,
          replicas: [{ ...replicaView(selfEntry(), at, head.version, head.epoch), stale: true }],
        };
      }
    },
    close: async () => {
      clearInterval(checkingIn);
      await roster?.leave(self.id);
    },
  };
}
