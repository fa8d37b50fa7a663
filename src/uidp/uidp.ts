import { randomBytes } from 'node:crypto';

// UIDP facts, shared by the proxy and the emulator: a root is 20 random bytes (40 hex), a child segment 8 bytes (16 hex).
// one pattern for the whole uid: a split and a test per segment cost three times as much
export const UIDP = /^[0-9a-f]{40}(?:\/[0-9a-f]{16})*$/;

/** How a client is told what a uid looks like. */
export const UID_RULE_TEXT = 'must be a uid (40 hex characters, then /16 hex per level)';

export function isUidp(value: string): boolean {
  return UIDP.test(value);
}

export function newRootUid(): string {
  return randomBytes(20).toString('hex');
}

export function newChildUid(parent: string): string {
  return `${parent}/${randomBytes(8).toString('hex')}`;
}

/** `Parent("a/b/c") = "a/b"`, `Parent("a") = "/"`. */
export function parentOf(uid: string): string {
  const cut = uid.lastIndexOf('/');
  return cut < 0 ? '/' : uid.slice(0, cut);
}

export function isAncestor(ancestor: string, uid: string): boolean {
  return uid.startsWith(`${ancestor}/`);
}

export function isSelfOrAncestor(ancestor: string, uid: string): boolean {
  return uid === ancestor || isAncestor(ancestor, uid);
}
