import type { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/error-registry.js';
import type { Mapping } from './mapping-schema.js';

type Operation = Mapping['v2']['operations'][number];

/** A v2 path of a resource: its collection (`/groups`) or one of its items (`/groups/{uid}`, a create's `/groups/{parent}`). */
export type PathKind = 'collection' | 'item';

// in the order an Allow header lists them
const ON_COLLECTION: readonly [string, Operation][] = [
  ['GET', 'list'],
  ['POST', 'create'],
];
const ON_ITEM: readonly [string, Operation][] = [
  ['GET', 'get'],
  ['POST', 'create'],
  ['PATCH', 'update'],
  ['DELETE', 'delete'],
];

/**
 * The methods a path of the resource serves, as an Allow header lists them: a wrong method is
 * answered with these. A create is served on the collection too (answered with the missing parent
 * named, where the resource has no root).
 */
function methodsServed(v2: Pick<Mapping['v2'], 'operations'>, kind: PathKind): string[] {
  return (kind === 'collection' ? ON_COLLECTION : ON_ITEM).filter(([, op]) => v2.operations.includes(op)).map(([method]) => method);
}

/**
 * The answer to a method the path does not serve: the gateway's 501 with the methods it does serve
 * (Allow); for an operation neither version can do, the mapping's reason why.
 */
export function wrongMethod(
  v2: Pick<Mapping['v2'], 'operations' | 'unsupported'>,
  operation: Operation | undefined,
  named: { method: string; path: string },
  kind: PathKind,
): ApiError {
  const reason = operation ? v2.unsupported[operation] : undefined;
  const allow = methodsServed(v2, kind);
  return reason ? apiError('METHOD_UNSUPPORTED', { reason }, { allow }) : apiError('METHOD_NOT_ALLOWED', named, { allow });
}
