import { denied } from './grpc-status.js';
import type { Store } from './store.js';
import { isSelfOrAncestor, parentOf } from '../uidp/uidp.js';

/** Who is calling: the dev superuser, or an identity (from a static token or an STS-minted JWT). */
export type Caller = { kind: 'superuser' } | { kind: 'identity'; uid: string };

interface Grant {
  scope: string;
  capabilities: ReadonlySet<string>;
}

/**
 * What a caller may do, computed once per request: an identity holds a capability on a uid when one of
 * its role bindings sits on that uid's group or an ancestor and the bound role grants it.
 */
export class Access {
  private readonly grants: Grant[];

  constructor(
    readonly caller: Caller,
    store: Store,
  ) {
    this.grants = [];
    if (caller.kind !== 'identity') return;
    for (const binding of store.rolebindings.values()) {
      if (binding.identity !== caller.uid) continue;
      const role = store.roles.get(binding.role);
      if (role) this.grants.push({ scope: parentOf(binding.id), capabilities: new Set(role.capabilities) });
    }
  }

  get identityUid(): string | undefined {
    return this.caller.kind === 'identity' ? this.caller.uid : undefined;
  }

  can(capability: string, target: string): boolean {
    if (this.caller.kind === 'superuser') return true;
    return this.grants.some((g) => g.capabilities.has(capability) && isSelfOrAncestor(g.scope, target));
  }

  require(capability: string, target: string): void {
    if (!this.can(capability, target)) throw denied(`permission denied: ${capability} on ${target}`);
  }
}
