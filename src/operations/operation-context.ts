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
}
