// The emulator's in-memory state: one Map per v1 collection, in insertion order (v1 lists are unordered;
// the proxy has to sort), plus the static tokens of the seed file.

export type Json = Record<string, unknown>;

export interface GroupRecord {
  id: string;
  name: string;
  description: string;
  resourceLimits: Record<string, number>;
  verified: boolean;
  kind?: string;
}

export interface IdentityRecord {
  id: string;
  name: string;
  description: string;
  createdAt: number;
  updatedAt: number;
  lastSeen?: number;
  /** exactly one of claimMatch, static, servicePrincipal, awsIdentity, as v1 JSON */
  relationship: Json;
}

export interface RoleRecord {
  id: string;
  name: string;
  description: string;
  capabilities: string[];
}

export interface RoleBindingRecord {
  id: string;
  identity: string;
  role: string;
  createdAt: number;
}

export interface IdentityProviderRecord {
  id: string;
  name: string;
  description: string;
  defaultRole: string;
  oidc?: Json;
}

export interface AccountAssociationRecord {
  group: string;
  name: string;
  description: string;
  providers: Json;
}

export interface GroupInviteRecord {
  id: string;
  role: string;
  email: string;
  singleUse: boolean;
  keyId: string;
  code: string;
  expiration: number;
  createdAt: number;
}

export interface RepoRecord {
  id: string;
  createTime: number;
  fields: Json;
}

export interface TagRecord {
  id: string;
  name: string;
  digest: string;
  lastUpdated: number;
  deprecated: boolean;
  bundles: string[];
}

export interface AdvisoryRecord {
  id: string;
  createdAt: number;
  updatedAt: number;
  deletedAt?: number;
  fields: Json;
}

export interface Store {
  groups: Map<string, GroupRecord>;
  identities: Map<string, IdentityRecord>;
  roles: Map<string, RoleRecord>;
  rolebindings: Map<string, RoleBindingRecord>;
  identityProviders: Map<string, IdentityProviderRecord>;
  account_associations: Map<string, AccountAssociationRecord>;
  group_invites: Map<string, GroupInviteRecord>;
  repos: Map<string, RepoRecord>;
  tags: Map<string, TagRecord>;
  advisories: Map<string, AdvisoryRecord>;
  /** static bearer token → identity uid */
  tokens: Map<string, string>;
  /** create and update times of every record (`<collection>|<key>`), kept even where v1 shows none */
  times: Map<string, RecordTimes>;
}

export interface RecordTimes {
  created: number;
  updated: number;
}

export type CollectionName = Exclude<keyof Store, 'tokens' | 'times'>;

export function emptyStore(): Store {
  return {
    groups: new Map(),
    identities: new Map(),
    roles: new Map(),
    rolebindings: new Map(),
    identityProviders: new Map(),
    account_associations: new Map(),
    group_invites: new Map(),
    repos: new Map(),
    tags: new Map(),
    advisories: new Map(),
    tokens: new Map(),
    times: new Map(),
  };
}
