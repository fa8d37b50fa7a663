import type { CollectionDef } from '../collection.js';
import { accountAssociations } from './account-associations.js';
import { advisories } from './advisories.js';
import { groupInvites } from './group-invites.js';
import { groups } from './groups.js';
import { identities } from './identities.js';
import { identityProviders } from './identity-providers.js';
import { repos } from './repos.js';
import { rolebindings } from './rolebindings.js';
import { roles } from './roles.js';
import { tags } from './tags.js';

// A heterogeneous list: each entry is typed where it is defined.
export type AnyCollection = CollectionDef<any>;

/** Every v1 collection, in seed-load order (what a record refers to is loaded before it). */
export const COLLECTIONS: readonly AnyCollection[] = [
  groups,
  roles,
  identities,
  rolebindings,
  identityProviders,
  accountAssociations,
  groupInvites,
  repos,
  tags,
  advisories,
];
