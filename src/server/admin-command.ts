import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Operator } from '../auth/admin-operators.js';
import { apiError, invalidFields } from '../errors/error-registry.js';
import type { ApiError } from '../errors/api-error.js';
import { idempotencyKeyOf } from '../exchange/keyed-create.js';
import { canonicalJson } from '../json/canonical-json.js';
import { sameOperations } from '../rollout/control-document.js';
import { type ChangeOptions, type ControlRefusedError, controlVersion } from '../rollout/control-plane.js';
import type { RolloutSnapshot } from '../rollout/rollout-snapshot.js';

/** What an admin command asks: why (kept in the audit trail), and for a route command the step it was decided on. */
export interface CommandBody {
  reason: string;
  /** the route's step as the operator saw it (1, 2, …): a route elsewhere answers CONTROL_STATE_CHANGED */
  fromStep?: number | undefined;
}

/** The optional body of an admin command: `{"reason": "<text>"}`, and for a route command `fromStep`. */
export function commandBody(body: unknown, steps: boolean): CommandBody {
  if (body === undefined || body === null) return { reason: '' };
  const shape = steps ? '{"reason": "<text>", "fromStep": <the step shown>}' : '{"reason": "<text>"}';
  if (typeof body !== 'object' || Array.isArray(body)) throw apiError('BAD_REQUEST', { reason: `the body is optional; when given it is ${shape}` });
  const { reason, fromStep } = body as { reason?: unknown; fromStep?: unknown };
  if (reason !== undefined && typeof reason !== 'string') throw apiError('BAD_REQUEST', { reason: `the body is optional; when given it is ${shape}` });
  if ((reason ?? '').length > 500) throw apiError('BAD_REQUEST', { reason: 'reason: at most 500 characters' });
  if (fromStep !== undefined && (!steps || typeof fromStep !== 'number' || !Number.isInteger(fromStep) || fromStep < 1 || fromStep > 50)) {
    throw apiError('BAD_REQUEST', {
      reason: steps ? 'fromStep: the step shown, a whole number from 1 to 50' : `the body is optional; when given it is ${shape}`,
    });
  }
  return { reason: (reason ?? '').replace(/[\r\n]+/g, ' ').trim(), ...(fromStep === undefined ? {} : { fromStep }) };
}

/** `If-Match` as the status's ETag gives it (`"<epoch>.<version>"`, weak or strong); `*` or none: any state. */
function ifMatchOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const tag = value.trim().replace(/^W\//, '');
  if (tag === '*') return undefined;
  if (!/^"?[0-9a-f]{0,32}\.?\d{0,12}"?$/.test(tag) || tag.replace(/"/g, '') === '') {
    throw invalidFields([{ field: 'If-Match', description: 'must be the controlVersion (ETag) of GET /admin/rollout' }]);
  }
  return tag.replace(/"/g, '');
}

/**
 * An admin command as the control plane takes it: its id (an operator's `Idempotency-Key`, per
 * operator; or a random one) with the hash of what it asks, and the state it was decided on.
 */
export function commandOptions(req: FastifyRequest): ChangeOptions {
  const given = req.headers['idempotency-key'];
  const key = given === undefined ? undefined : idempotencyKeyOf(given);
  const ifMatch = ifMatchOf(req.headers['if-match']);
  const operator = (req.operator as Operator).name;
  const fingerprint = createHash('sha256')
    .update(`${req.method} ${req.url.split('?', 1)[0]}\0${canonicalJson(req.body ?? null)}\0${ifMatch ?? ''}`)
    .digest('base64url');
  const id = key === undefined ? randomBytes(12).toString('base64url') : createHash('sha256').update(`command\0${operator}\0${key}`).digest('base64url');
  return { command: { id, fingerprint, keyed: key !== undefined }, ifMatch };
}

/** The ETag of a control state: its version, what `If-Match` names. */
export function etagOf(s: RolloutSnapshot): string {
  return `"${controlVersion(s.head)}"`;
}

/** A refused command as the registry's error: `action` names it, `route` (a route command's) is shown with a stale state. */
export function refusedCommand(
  err: ControlRefusedError,
  action: string,
  s: RolloutSnapshot,
  route?: { resource: string; operations: readonly string[] },
): ApiError {
  switch (err.kind) {
    case 'unknown-route':
      return apiError('ROLLOUT_ROUTE_NOT_FOUND', { reason: err.message });
    case 'key-reused':
      return invalidFields([{ field: 'Idempotency-Key', description: err.message }]);
    case 'file-refused':
      return apiError('ROLLOUT_FILE_REFUSED', { reason: err.message });
    case 'stale': {
      const shown = route && s.routes.find((r) => r.route.resource === route.resource && sameOperations(r.route.operations, route.operations));
      const metadata: Record<string, string> = { controlVersion: controlVersion(s.head) };
      if (shown?.schedule) {
        metadata.state = shown.progress?.state ?? 'shadowing';
        metadata.step = String((shown.progress?.step ?? 0) + 1);
        metadata.native = String(shown.share.native);
      }
      return apiError('CONTROL_STATE_CHANGED', { reason: err.message }, { metadata });
    }
    default:
      return apiError('ROLLOUT_TRANSITION_REFUSED', { action, reason: err.message });
  }
}
