import type { ApiError } from '../errors/api-error.js';
import type { Json } from '../json/json-path.js';
import type { JsonText } from '../json/json-text.js';
import type { RequestOrigin } from '../operations/operation-context.js';
import type { ComparedAnswer } from '../shadow/compare-answers.js';
import type { Exchange, Protocol } from './exchange.js';

/** What a door answered: the HTTP status (a gRPC call's: the one its code stands for), and a gRPC call's code. */
export interface Rendered {
  status: number;
  grpcCode?: number | undefined;
}

/** What served an exchange: the translation's result, or the native backend's answer in the door's own form. */
export type Served<N> = { side: 'translate'; value: Json | JsonText } | { side: 'native'; value: N };

/**
 * What a front door adds to the pipeline: how its requests reach the native backend (REST as
 * REST, gRPC as gRPC), and how an answer of either side reads to the shadow comparator (REST JSON,
 * or proto JSON for gRPC). Whether an answer failed is its outcome's business, read from the
 * status the door renders it with.
 */
export interface Door<W, N> {
  readonly protocol: Protocol;
  native(ex: Exchange<W>, origin: RequestOrigin): Promise<N>;
  /** a native create's answer as the created resource in v2 JSON (undefined: it created nothing) */
  created(ex: Exchange<W>, answer: N): Json | undefined;
  comparable(ex: Exchange<W>, answer: Served<N> | ApiError): ComparedAnswer;
}
