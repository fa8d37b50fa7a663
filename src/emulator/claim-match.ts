import type { JWTPayload } from 'jose';
import { isPlainObject } from './body.js';
import type { Json } from './store.js';

function fullMatch(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    return false;
  }
}

/** `x` must equal the exact value, or `xPattern` must match it whole (each pair is a oneof in v1). */
function fieldMatches(cm: Json, name: string, values: string[]): boolean {
  const exact = cm[name];
  const pattern = cm[`${name}Pattern`];
  if (typeof exact === 'string' && exact !== '') return values.includes(exact);
  if (typeof pattern === 'string' && pattern !== '') return values.some((v) => fullMatch(pattern, v));
  return name === 'audience'; // audience is optional; issuer and subject are not
}

/** Whether a verified OIDC token may assume an identity with this v1 `claimMatch`. */
export function claimMatches(cm: Json, token: JWTPayload): boolean {
  const aud = token.aud === undefined ? [] : Array.isArray(token.aud) ? token.aud : [token.aud];
  if (!fieldMatches(cm, 'issuer', [String(token.iss ?? '')])) return false;
  if (!fieldMatches(cm, 'subject', [String(token.sub ?? '')])) return false;
  if (!fieldMatches(cm, 'audience', aud)) return false;
  const claims = isPlainObject(cm.claims) ? cm.claims : {};
  for (const [k, v] of Object.entries(claims)) if (String(token[k]) !== String(v)) return false;
  const patterns = isPlainObject(cm.claimPatterns) ? cm.claimPatterns : {};
  for (const [k, p] of Object.entries(patterns)) if (!fullMatch(String(p), String(token[k] ?? ''))) return false;
  return true;
}
