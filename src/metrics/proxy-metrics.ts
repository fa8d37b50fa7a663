import { type Outcome, outcomeOf, STOPPED, type Stop } from '../errors/request-outcome.js';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The few metrics that matter, in one registry per app. Labels are closed sets (resource names,
 * operations, backends, status codes): never a uid, a tenant or a token.
 */
export class ProxyMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'v2proxy_requests_total',
    help: 'v2 and v1 requests, by way in (rest, grpc, v1), resource, operation, backend (none: refused before any side), HTTP status (for gRPC, the status its code stands for; 499: the client left first), outcome (answered, client_error, backend_failure, cancelled, deadline, shutdown, refused) and the rollout rule that chose the backend (override: an operator forced it; counted nowhere else)',
    labelNames: ['protocol', 'resource', 'operation', 'backend', 'status', 'outcome', 'decision'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'v2proxy_request_duration_seconds',
    help: 'time to serve a v2 request, by front door, resource, operation and backend',
    labelNames: ['protocol', 'resource', 'operation', 'backend'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly upstream = new Counter({
    name: 'v2proxy_upstream_requests_total',
    help: 'calls to the backends (v1, or the native v2), by HTTP status (error: no answer) and outcome (answered, client_error, backend_failure; cancelled, deadline, shutdown: its request stopped it)',
    labelNames: ['upstream', 'status', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly rollbacks = new Counter({
    name: 'v2proxy_rollout_rollbacks_total',
    help: 'routes the guard rolled back to translation',
    labelNames: ['resource'] as const,
    registers: [this.registry],
  });
  readonly reloads = new Counter({
    name: 'v2proxy_rollout_reloads_total',
    help: 'rollout file reloads, by result (ok, error)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly progressChanges = new Counter({
    name: 'v2proxy_rollout_transitions_total',
    help: 'state changes and steps of progressive routes made by this replica, by resource and the state entered',
    labelNames: ['resource', 'to'] as const,
    registers: [this.registry],
  });

  readonly webhook = new Counter({
    name: 'v2proxy_rollout_webhook_total',
    help: 'rollout webhook deliveries by outcome (delivered, retried, failed: given up, dropped: queue full)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly traceSpans = new Counter({
    name: 'v2proxy_trace_spans_exported_total',
    help: 'spans the OTLP collector took',
    registers: [this.registry],
  });
  readonly traceSpansDropped = new Counter({
    name: 'v2proxy_trace_spans_dropped_total',
    help: 'spans that never reached the OTLP collector, by reason (queue_full: export fell behind; export_failed: the collector was down, slow or refused the batch)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly shadow = new Counter({
    name: 'v2proxy_shadow_total',
    help: 'shadow reads, by resource, operation and outcome (match, differ, error, skipped)',
    labelNames: ['resource', 'operation', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly verifications = new Counter({
    name: 'v2proxy_write_verifications_total',
    help: 'verified writes, by resource, operation and outcome (match, differ, unverified, error, skipped)',
    labelNames: ['resource', 'operation', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly writeDifferences = new Counter({
    name: 'v2proxy_write_differences_total',
    help: 'verified writes that differ, by resource, operation and check (intent, answer, other side)',
    labelNames: ['resource', 'operation', 'check'] as const,
    registers: [this.registry],
  });

  readonly circuitOpen = new Gauge({
    name: 'v2proxy_circuit_open',
    help: 'whether the circuit breaker of a backend is open (calls fail fast), by backend',
    labelNames: ['backend'] as const,
    registers: [this.registry],
  });

  readonly connectionsRefused = new Counter({
    name: 'v2proxy_connections_refused_total',
    help: 'client connections closed as they came because MAX_CONNECTIONS were open',
    registers: [this.registry],
  });

  // the labelled series of each (protocol, resource, operation, backend[, status]), found once: prom-client
  // hashes a label object on every call otherwise
  private readonly series = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();

  /** `connections`: the listener's open client connections, read when scraped */
  constructor(connections?: { readonly open: number }) {
    collectDefaultMetrics({ register: this.registry });
    if (connections) {
      new Gauge({
        name: 'v2proxy_connections_open',
        help: 'client connections open now (HTTP/1.1, h2c and TLS)',
        registers: [this.registry],
        collect() {
          this.set(connections.open);
        },
      });
    }
  }

  /** The rollout's state, read when scraped: the kill switch, each rolled-back route, and with a fleet the version this replica applied and how stale it is. */
  rolloutGauges(read: {
    killSwitch(): boolean;
    rolledBack(): { resource: string; operations: string }[];
    fleet(): { version: number; staleSeconds: number | undefined } | undefined;
    drift(): boolean;
    progressive(): { resource: string; operations: string; state: string; step: number; native: number }[];
  }): void {
    new Gauge({
      name: 'v2proxy_rollout_state',
      help: 'each progressive route: 1 for the state it is in (shadowing, progressing, waiting: the analysis holds the step, paused: an operator did, promoted, aborted)',
      labelNames: ['resource', 'operations', 'state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const r of read.progressive()) this.set({ resource: r.resource, operations: r.operations, state: r.state }, 1);
      },
    });
    new Gauge({
      name: 'v2proxy_rollout_step',
      help: 'each progressive route: the step it is at (1 is the first)',
      labelNames: ['resource', 'operations'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const r of read.progressive()) this.set({ resource: r.resource, operations: r.operations }, r.step);
      },
    });
    new Gauge({
      name: 'v2proxy_rollout_native_percent',
      help: 'each progressive route: the native share its state serves with (before the kill switch and the guard)',
      labelNames: ['resource', 'operations'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const r of read.progressive()) this.set({ resource: r.resource, operations: r.operations }, r.native);
      },
    });
    new Gauge({
      name: 'v2proxy_rollout_config_drift',
      help: "whether this replica's own rollout file differs from the configuration the fleet runs (it follows the fleet's)",
      registers: [this.registry],
      collect() {
        this.set(read.drift() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'v2proxy_kill_switch',
      help: 'whether the kill switch is on (every v2 request translated)',
      registers: [this.registry],
      collect() {
        this.set(read.killSwitch() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'v2proxy_route_rolled_back',
      help: 'routes the guard has rolled back to translation now, by resource and operations',
      labelNames: ['resource', 'operations'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const route of read.rolledBack()) this.set(route, 1);
      },
    });
    new Gauge({
      name: 'v2proxy_control_version',
      help: "the version of the fleet's control state (configuration, kill switch, rollbacks, progressive routes) this replica has applied (with REDIS_URL)",
      registers: [this.registry],
      collect() {
        const fleet = read.fleet();
        if (fleet) this.set(fleet.version);
      },
    });
    new Gauge({
      name: 'v2proxy_control_stale_seconds',
      help: 'seconds since this replica last confirmed the fleet state with Redis (with REDIS_URL; -1: never)',
      registers: [this.registry],
      collect() {
        const fleet = read.fleet();
        if (fleet) this.set(fleet.staleSeconds ?? -1);
      },
    });
  }

  /** One v2 request answered: counted by status and the rule that chose its backend, timed. */
  served(protocol: string, resource: string, operation: string, backend: string, status: number, outcome: Outcome, seconds: number, decision: string): void {
    const key = `${protocol}|${resource}|${operation}|${backend}|${status}|${outcome}|${decision}`;
    let one = this.series.get(key);
    if (!one) {
      const labels = { protocol, resource, operation, backend };
      one = { count: this.requests.labels({ ...labels, status: String(status), outcome, decision }), time: this.duration.labels(labels) };
      this.series.set(key, one);
    }
    one.count.inc();
    one.time.observe(seconds);
  }

  /** An observer for one upstream client's answers (each status's counter found once, not on every answer). */
  upstreamObserver(upstream: 'v1' | 'v2'): (status: number | 'error' | Stop) => void {
    const counters = new Map<number | string, { inc(): void }>();
    const labelsOf = (status: number | 'error' | Stop) => {
      if (typeof status === 'number') return { upstream, status: String(status), outcome: outcomeOf({ status, reached: true, stopped: undefined }) };
      if (status === 'error') return { upstream, status, outcome: 'backend_failure' };
      return { upstream, status: String(STOPPED[status].status), outcome: status };
    };
    return (status) => {
      let counter = counters.get(status);
      if (!counter) {
        counter = this.upstream.labels(labelsOf(status));
        counters.set(status, counter);
      }
      counter.inc();
    };
  }
}
