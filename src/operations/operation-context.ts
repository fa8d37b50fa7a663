import type { PageTokenCodec } from '../list/page-token.js';
import type { SnapshotCache } from '../list/snapshot-cache.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import type { KeyedLock } from '../update/keyed-lock.js';
import type { V1Client } from '../upstream/v1-client.js';

/** What one v2 operation needs: the resource's compiled mapping and the caller's v1 credentials. */
export interface OperationContext {
  resource: CompiledResource;
  v1: V1Client;
  authorization: string | undefined;
  requestId: string;
  /** serializes read-modify-writes per uid (one per app) */
  locks: KeyedLock;
  /** list snapshots and page tokens (one per app) */
  lists: { cache: SnapshotCache; tokens: PageTokenCodec; now: () => number };
  /** the caller's fingerprint (a hash of its Authorization) */
  caller: string;
}

/** The prefix of every list snapshot a caller holds for a resource. */
export function snapshotPrefix(ctx: OperationContext): string {
  return `${ctx.caller}|${ctx.resource.mapping.resource}|`;
}

/** A write through the proxy drops the caller's snapshots of that resource, so its next list sees it. */
export function afterWrite(ctx: OperationContext): void {
  ctx.lists.cache.invalidate(snapshotPrefix(ctx));
}
