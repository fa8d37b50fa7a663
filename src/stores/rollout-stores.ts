import type { ControlStore } from './control-store.js';
import type { FleetChannel } from './fleet-channel.js';
import type { AnalysisCounters, FleetCounters, Lease } from './fleet-counters.js';
import { MemoryAnalysisCounters } from './memory-analysis-counters.js';
import { MemoryControlStore } from './memory-control-store.js';
import { MemoryGuardCounters } from './memory-guard-counters.js';
import { TrafficCounters } from './traffic-counters.js';

/** Where the rollout keeps what replicas agree on: its control state, the guard's and the analysis's counts, the traffic figures. */
export interface RolloutStores {
  control: ControlStore;
  guard: FleetCounters;
  /** this replica's own guard counts, judged alone while the shared ones do not answer */
  alone: FleetCounters;
  analysis: AnalysisCounters;
  traffic: TrafficCounters;
  /** who judges the progressive intervals */
  lease: Lease;
  /** with a fleet: the news of its changes, and this replica's name as a lease holder (none: a replica alone) */
  fleet?: { news: FleetChannel; holder: string } | undefined;
}

/** A replica alone: everything in its memory. */
export function memoryRolloutStores(now: () => number): RolloutStores {
  return {
    control: new MemoryControlStore(),
    guard: new MemoryGuardCounters(),
    alone: new MemoryGuardCounters(),
    analysis: new MemoryAnalysisCounters(now),
    traffic: new TrafficCounters(new MemoryAnalysisCounters(now)),
    lease: { hold: async () => true },
  };
}
