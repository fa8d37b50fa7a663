import { callerFingerprint } from '../auth/caller-fingerprint.js';
import type { LookupCache } from '../hydrate/lookup-cache.js';
import type { PageTokenCodec } from '../list/page-token.js';
import type { SnapshotCache } from '../list/snapshot-cache.js';
import type { Json } from '../json/json-path.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import type { TimesStore } from '../meta/meta-store.js';
import type { IdempotencyStore } from '../stores/idempotency-store.js';
import type { WriteLock } from '../update/write-lock.js';
import type { RequestSpans, UpstreamCall } from '../upstream/attempt-spans.js';
import type { TraceContext } from '../upstream/trace-context.js';
import type { V1Client } from '../upstream/v1-client.js';
import type { LifeSignal } from '../upstream/request-life.js';

/** Who asked, and the request's life: what every upstream call of one request carries. */
export interface RequestOrigin {
  authorization: string | undefined;
  requestId: string;
  /** aborted when the client goes away or the drain's time is up: no upstream call starts after */
  signal: LifeSignal | undefined;
  /** the client's W3C trace headers, forwarded on every upstream call */
  trace: TraceContext | undefined;
  /** a traced request's spans (tracing on, the request sampled): each upstream attempt gets a client span */
  spans?: RequestSpans | undefined;
  /** what its upstream calls are for, when not the request's own (a lookup) */
  purpose?: UpstreamCall['purpose'];
  /** told an update's v1 record as read before its write (a verified update's pre-image) */
  preImage?: ((record: Json) => void) | undefined;
}

/** What one v2 operation needs: the resource's compiled mapping and the caller's v1 credentials. */
export interface OperationContext extends RequestOrigin {
  resource: CompiledResource;
  v1: V1Client;
  /** serializes read-modify-writes per uid (one per app; on Redis across replicas) */
  locks: WriteLock;
  /** Idempotency-Key records of creates (one per app; on Redis across replicas) */
  idempotency: IdempotencyStore;
  /** list snapshots and page tokens (one per app); a kept snapshot's access is re-checked after `reauthMs` */
  lists: {
    cache: SnapshotCache;
    tokens: PageTokenCodec;
    reauthMs: number;
    /** tells the other replicas of a write, so they drop their snapshots of the resource too */
    written?: ((resource: string) => void) | undefined;
  };
  /** the caller's fingerprint (a hash of its Authorization) */
  caller: string;
  /** every resource, by name (lookups of one resource from another) */
  resources: ReadonlyMap<string, CompiledResource>;
  /** per-caller lookups for hydration (one per app) */
  lookups: LookupCache;
  /** the times v1 does not keep (one per app) */
  meta: TimesStore;
  /** the clock of page tokens and synthesized times */
  now: () => number;
  /** something went wrong that the answer does not show (a write v1 applied whose times could not be kept) */
  warn: (message: string, err?: unknown) => void;
}

/** What every operation of one app shares. */
export type AppServices = Pick<OperationContext, 'locks' | 'idempotency' | 'lists' | 'resources' | 'lookups' | 'meta' | 'now' | 'warn'>;

/** The context of one call, its fields set one by one (a spread per request cost more); the caller's fingerprint (a hash) made only when something keyed by caller needs it. */
class Context implements OperationContext {
  readonly locks: WriteLock;
  readonly idempotency: IdempotencyStore;
  readonly lists: OperationContext['lists'];
  readonly resources: ReadonlyMap<string, CompiledResource>;
  readonly lookups: LookupCache;
  readonly meta: TimesStore;
  readonly now: () => number;
  readonly warn: (message: string, err?: unknown) => void;
  readonly authorization: string | undefined;
  readonly requestId: string;
  readonly signal: LifeSignal | undefined;
  readonly trace: TraceContext | undefined;
  readonly spans: RequestSpans | undefined;
  readonly purpose: UpstreamCall['purpose'];
  readonly preImage: ((record: Json) => void) | undefined;
  private fingerprint: string | undefined;

  constructor(
    services: AppServices,
    readonly resource: CompiledResource,
    readonly v1: V1Client,
    origin: RequestOrigin,
  ) {
    this.authorization = origin.authorization;
    this.requestId = origin.requestId;
    this.signal = origin.signal;
    this.trace = origin.trace;
    this.spans = origin.spans;
    this.purpose = origin.purpose;
    this.preImage = origin.preImage;
    this.locks = services.locks;
    this.idempotency = services.idempotency;
    this.lists = services.lists;
    this.resources = services.resources;
    this.lookups = services.lookups;
    this.meta = services.meta;
    this.now = services.now;
    this.warn = services.warn;
  }

  get caller(): string {
    this.fingerprint ??= callerFingerprint(this.authorization);
    return this.fingerprint;
  }
}

/** The context of one call of `resource` for a caller, whichever front door (REST, gRPC) it came by. */
export function operationContext(services: AppServices, resource: CompiledResource, v1: V1Client, origin: RequestOrigin): OperationContext {
  return new Context(services, resource, v1, origin);
}

/** The same call's context for another resource (a lookup of one resource from another). */
export function forResource(ctx: OperationContext, resource: CompiledResource): OperationContext {
  return new Context(ctx, resource, ctx.v1, ctx);
}

/**
 * The same call's context for work other requests may share (a list load, a batched lookup): it
 * runs on that work's own signal (see SharedCall), not on this request's.
 */
export function withSignal(ctx: OperationContext, signal: LifeSignal, purpose?: UpstreamCall['purpose']): OperationContext {
  return new Context(ctx, ctx.resource, ctx.v1, {
    authorization: ctx.authorization,
    requestId: ctx.requestId,
    signal,
    trace: ctx.trace,
    spans: ctx.spans,
    purpose: purpose ?? ctx.purpose,
  });
}

/** The prefix of every list snapshot a caller holds for a resource. */
export function snapshotPrefix(ctx: OperationContext): string {
  return `${ctx.caller}|${ctx.resource.mapping.resource}|`;
}

/** A write through the proxy drops the caller's snapshots of that resource, so its next list sees it, and tells the fleet. */
export function afterWrite(ctx: OperationContext): void {
  ctx.lists.cache.invalidate(snapshotPrefix(ctx), ctx.resource.mapping.resource);
  ctx.lists.written?.(ctx.resource.mapping.resource);
}
