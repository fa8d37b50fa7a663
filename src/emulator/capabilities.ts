import { createHash } from 'node:crypto';

const CRUD = ['create', 'update', 'list', 'delete'] as const;
const LIST = ['list'] as const;

// v1 names a capability by its enum value's friendly `(name)` option, `<family>.<verb>`; v2 by the
// enum value itself, `<prefix>_<VERB>`. Every value of the platform's capability enum whose friendly
// name is published, by family: [v1 family, v2 prefix, verbs].
const FAMILIES: readonly (readonly [string, string, readonly string[]])[] = [
  ['groups', 'CAP_IAM_GROUPS', CRUD],
  ['group_invites', 'CAP_IAM_GROUP_INVITES', ['create', 'list', 'delete']],
  ['roles', 'CAP_IAM_ROLES', CRUD],
  ['role_bindings', 'CAP_IAM_ROLE_BINDINGS', CRUD],
  ['clusters', 'CAP_TENANT_CLUSTERS', [...CRUD, 'discover']],
  ['records', 'CAP_TENANT_RECORDS', LIST],
  ['record_contexts', 'CAP_TENANT_RECORD_CONTEXTS', LIST],
  ['record_signatures', 'CAP_TENANT_RECORD_SIGNATURES', LIST],
  ['record_policy_results', 'CAP_TENANT_RECORD_POLICY_RESULTS', LIST],
  ['risks', 'CAP_TENANT_RISKS', LIST],
  ['sboms', 'CAP_TENANT_SBOMS', LIST],
  ['vuln_reports', 'CAP_TENANT_VULN_REPORTS', LIST],
  ['attestations', 'CAP_TENANT_ATTESTATIONS', LIST],
  ['account_associations', 'CAP_IAM_ACCOUNT_ASSOCIATIONS', CRUD],
  ['policy', 'CAP_IAM_POLICY', CRUD],
  ['identity', 'CAP_IAM_IDENTITY', CRUD],
  ['nodes', 'CAP_TENANT_NODES', LIST],
  ['namespaces', 'CAP_TENANT_NAMESPACES', LIST],
  ['workloads', 'CAP_TENANT_WORKLOADS', LIST],
  ['identity_providers', 'CAP_IAM_IDENTITY_PROVIDERS', CRUD],
  ['identity_providers.scim', 'CAP_IAM_SCIM', ['manage']],
  ['subscriptions', 'CAP_EVENTS_SUBSCRIPTION', CRUD],
  ['repo', 'CAP_REPO', CRUD],
  ['manifest', 'CAP_MANIFEST', CRUD],
  ['tag', 'CAP_TAG', CRUD],
  ['manifest.metadata', 'CAP_MANIFEST_METADATA', LIST],
  ['apk', 'CAP_APK', CRUD],
  ['version', 'CAP_VERSION', LIST],
  ['vuln_report', 'CAP_VULN_REPORT', ['create', 'list']],
  ['vuln', 'CAP_VULN', ['create']],
  ['build_report', 'CAP_BUILD_REPORT', LIST],
  ['libraries.entitlements', 'CAP_LIBRARIES_ENTITLEMENTS', ['create', 'list', 'delete']],
  ['libraries.artifacts', 'CAP_LIBRARIES_ARTIFACTS', LIST],
  ['libraries.python', 'CAP_LIBRARIES_PYTHON', LIST],
  ['libraries.java', 'CAP_LIBRARIES_JAVA', LIST],
  ['libraries.javascript', 'CAP_LIBRARIES_JAVASCRIPT', LIST],
  ['registry.entitlements', 'CAP_REGISTRY_ENTITLEMENTS', LIST],
  ['sigstore', 'CAP_SIGSTORE', CRUD],
  ['sigstore.certificate', 'CAP_SIGSTORE_CERTIFICATE', ['create']],
  ['advisories', 'CAP_ADVISORIES', [...CRUD, 'approve']],
];

// v1 name → v2 name; the two without a verb stand alone
const V2_OF = new Map<string, string>([
  ...FAMILIES.flatMap(([family, prefix, verbs]) => verbs.map((v) => [`${family}.${v}`, `${prefix}_${v.toUpperCase()}`] as const)),
  ['gulfstream', 'CAP_GULFSTREAM'],
  ['internal', 'CAP_INTERNAL'],
]);
const V1_OF = new Map([...V2_OF].map(([v1, v2]) => [v2, v1]));

export const ALL_CAPABILITIES: readonly string[] = [...V2_OF.keys()];

const KNOWN = new Set(ALL_CAPABILITIES);

export function isCapability(name: string): boolean {
  return KNOWN.has(name);
}

const familyOf = (name: string) => name.slice(0, name.lastIndexOf('.'));
// the built-in roles grant the capabilities of the resources the emulator serves
const SERVED_FAMILIES = new Set([
  'groups',
  'group_invites',
  'identity',
  'roles',
  'role_bindings',
  'identity_providers',
  'identity_providers.scim',
  'account_associations',
  'repo',
  'tag',
  'manifest',
  'advisories',
]);
const SERVED = ALL_CAPABILITIES.filter((c) => SERVED_FAMILIES.has(familyOf(c)));
const LISTS = SERVED.filter((c) => c.endsWith('.list'));
const EDIT_FAMILIES = new Set(['groups', 'identity', 'repo', 'tag', 'manifest', 'advisories']);
const EDIT = SERVED.filter((c) => EDIT_FAMILIES.has(familyOf(c)) && !c.endsWith('.approve'));

export interface BuiltInRole {
  id: string;
  name: string;
  description: string;
  capabilities: string[];
}

// Built-in roles live at the root; their uids are derived from the name so they are the same on every run.
function builtIn(name: string, description: string, capabilities: readonly string[]): BuiltInRole {
  const id = createHash('sha1').update(`v2proxy-emulator/builtin-role/${name}`).digest('hex');
  return { id, name, description, capabilities: [...new Set(capabilities)].sort() };
}

export const BUILT_IN_ROLES: readonly BuiltInRole[] = [
  builtIn('viewer', 'Viewer Role (built-in)', LISTS),
  builtIn('editor', 'Editor Role (built-in)', [...LISTS, ...EDIT]),
  builtIn('owner', 'Owner Role (built-in)', SERVED),
];

/** The v2 enum name of a v1 capability (unknown names pass through). */
export function v2Capability(v1: string): string {
  return V2_OF.get(v1) ?? v1;
}

/** The v1 name of a v2 capability enum name, or undefined when it is not one the emulator knows. */
export function v1Capability(v2: string): string | undefined {
  return V1_OF.get(v2);
}
