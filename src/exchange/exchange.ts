import type { Json } from '../json/json-path.js';
import type { RawQuery } from '../list/query-params.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import type { RequestOrigin } from '../operations/operation-context.js';
import type { Operation, RolloutRoute } from '../rollout/rollout-config.js';
import type { RequestCall } from './request-call.js';

import type { Protocol, Side } from './sides.js';

export { BACKEND_HEADER, type Protocol, type Side } from './sides.js';

/** An update's pre-image: as the native side showed it, or the v1 record the translation changed. */
export type PreImage = { shown: unknown } | { record: Json };

/** What the translation of the five operations reads, whichever door the request came by. */
export interface OperationInput {
  /** get, update, delete: the resource's uid; create: its parent ('' at the root) */
  uid: string;
  /** the field the uid came from, named in its error (`uid`, `parent`, `group.uid`) */
  uidField: string;
  /** create: the new resource; update: the fields to change */
  body: unknown;
  /** list: its parameters; update: its `update_mask` */
  query: RawQuery;
}

/**
 * One v2 request as the pipeline sees it: made by a front door from its protocol, it carries what
 * every step needs (resource, operation, caller, inputs, request id, trace context, life). What is
 * learnt of it on the way (the side and why, its span, its status) lives in its one `call`. `W`
 * is the door's wire form of the request (what goes to the native backend as it came).
 */
export interface Exchange<W = unknown> {
  readonly protocol: Protocol;
  /** the request as its lifecycle keeps it: what the pipeline learns of it goes there */
  readonly call: RequestCall;
  readonly resource: CompiledResource;
  readonly operation: Operation;
  readonly input: OperationInput;
  /** the request headers or metadata the rollout reads (authorization, sticky header, override) */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** who asks, with the request's life and trace headers: what its upstream calls carry */
  readonly origin: RequestOrigin;
  readonly idempotencyKey: string | string[] | undefined;
  /** a list continued with a page token */
  readonly pageToken: string | undefined;
  /** how the request is named in an error about it: its method and path (REST) or RPC and service */
  readonly named: { method: string; path: string };
  /** the request in REST form (path and query): what the record file keeps and a replay reads */
  restUrl(): string;
  readonly wire: W;
  /** the pipeline's plans for it: a shadow read once answered */
  shadow?: { config: RolloutRoute; noise: boolean } | undefined;
  /** a write to verify once answered: its route, its resource's generation when held, an update's pre-image */
  verify?: { config: RolloutRoute; generation: number; before: PreImage | undefined } | undefined;
}

/** The side an exchange is served on: its call's (the translation's until the rollout sends it native). */
export function sideOf(ex: Exchange): Side {
  return ex.call.side === 'native' ? 'native' : 'translate';
}
