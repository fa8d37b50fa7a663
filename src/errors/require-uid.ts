import { invalidFields } from './error-registry.js';
import { UID_RULE_TEXT, isUidp } from '../uidp/uidp.js';

/** A uid from a path or a message, or INVALID_ARGUMENT naming the field. */
export function requireUid(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isUidp(value)) throw invalidFields([{ field, description: `${field} ${UID_RULE_TEXT}` }]);
  return value;
}
