import { type DescMessage, type DescService, fromJson, type JsonValue } from '@bufbuild/protobuf';
import { AccountAssociationsService } from '../../gen/chainguard/platform/iam/v2beta1/account_associations_pb.js';
import { GroupInvitesService } from '../../gen/chainguard/platform/iam/v2beta1/group_invites_pb.js';
import { GroupsService } from '../../gen/chainguard/platform/iam/v2beta1/groups_pb.js';
import { IdentitiesService } from '../../gen/chainguard/platform/iam/v2beta1/identities_pb.js';
import { IdentityProvidersService } from '../../gen/chainguard/platform/iam/v2beta1/identity_providers_pb.js';
import { RoleBindingsService } from '../../gen/chainguard/platform/iam/v2beta1/role_bindings_pb.js';
import { RolesService } from '../../gen/chainguard/platform/iam/v2beta1/roles_pb.js';
import { ReposService } from '../../gen/chainguard/platform/registry/v2beta1/repos_pb.js';
import { TagsService } from '../../gen/chainguard/platform/registry/v2beta1/tags_pb.js';
import { isPlainObject } from '../body.js';
import { AdvisoriesService } from '../../gen/chainguard/platform/vulnerabilities/v2beta1/advisories_pb.js';

/** The ten v2beta1 services the native surface serves. */
export const SERVICES: readonly DescService[] = [
  GroupsService,
  IdentitiesService,
  RolesService,
  RoleBindingsService,
  IdentityProvidersService,
  AccountAssociationsService,
  GroupInvitesService,
  ReposService,
  TagsService,
  AdvisoriesService,
];

/** A service's collection: `IdentityProvidersService` serves `identityProviders`. */
export const pluralOf = (service: DescService): string => service.name.replace(/Service$/, '').replace(/^./, (c) => c.toLowerCase());

const RESOURCE_MESSAGES = new Map<string, DescMessage>(
  SERVICES.flatMap((s) => {
    const get = s.methods.find((m) => m.name.startsWith('Get'));
    return get ? [[pluralOf(s), get.output] as const] : [];
  }),
);

/**
 * Why a REST body cannot be read as the collection's resource message, as the gateway reads it
 * (protojson: a field of another type is refused; a field it does not know is left to the
 * resource's own checks), or undefined when it can.
 */
export function bodyTypeViolation(plural: string, body: unknown): { field: string; description: string } | undefined {
  const desc = RESOURCE_MESSAGES.get(plural);
  if (!desc) return undefined;
  const problem = (value: unknown) => {
    try {
      fromJson(desc, value as JsonValue, { ignoreUnknownFields: true });
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  };
  const message = problem(body);
  if (message === undefined) return undefined;
  // the reader names a scalar field; for one of a message type (a Timestamp) find which key it was
  const named = /field [\w.]+\.(\w+) from JSON/.exec(message)?.[1];
  const key = named ?? (isPlainObject(body) ? Object.keys(body).find((k) => problem({ [k]: body[k] }) !== undefined) : undefined) ?? 'body';
  return { field: key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()), description: message.replace(/^cannot decode /, 'cannot read ') };
}
