import { createHash } from 'node:crypto';

const CRUD = ['create', 'update', 'list', 'delete'] as const;

// v1 capability names (the enum's friendly `(name)` option) of the resources the emulator serves.
const FAMILIES: Record<string, readonly string[]> = {
  groups: CRUD,
  identity: CRUD,
  roles: CRUD,
  role_bindings: CRUD,
  identity_providers: CRUD,
  account_associations: CRUD,
  group_invites: ['create', 'list', 'delete'],
  repo: CRUD,
  tag: CRUD,
  manifest: CRUD,
  advisories: [...CRUD, 'approve'],
};

export const ALL_CAPABILITIES: readonly string[] = [
  ...Object.entries(FAMILIES).flatMap(([family, verbs]) => verbs.map((v) => `${family}.${v}`)),
  'identity_providers.scim.manage',
];

const KNOWN = new Set(ALL_CAPABILITIES);

export function isCapability(name: string): boolean {
  return KNOWN.has(name);
}

const LIST = ALL_CAPABILITIES.filter((c) => c.endsWith('.list'));
const EDIT_FAMILIES = ['groups', 'identity', 'repo', 'tag', 'manifest', 'advisories'];
const EDIT = ALL_CAPABILITIES.filter((c) => EDIT_FAMILIES.some((f) => c.startsWith(`${f}.`)) && !c.endsWith('.approve'));

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
  builtIn('viewer', 'Viewer Role (built-in)', LIST),
  builtIn('editor', 'Editor Role (built-in)', [...LIST, ...EDIT]),
  builtIn('owner', 'Owner Role (built-in)', ALL_CAPABILITIES),
];

// v2 names the capability enum values themselves (`CAP_IAM_GROUPS_LIST`); v1 their friendly names.
const V2_FAMILY: Record<string, string> = {
  groups: 'CAP_IAM_GROUPS',
  identity: 'CAP_IAM_IDENTITY',
  roles: 'CAP_IAM_ROLES',
  role_bindings: 'CAP_IAM_ROLE_BINDINGS',
  identity_providers: 'CAP_IAM_IDENTITY_PROVIDERS',
  account_associations: 'CAP_IAM_ACCOUNT_ASSOCIATIONS',
  group_invites: 'CAP_IAM_GROUP_INVITES',
  repo: 'CAP_REPO',
  tag: 'CAP_TAG',
  manifest: 'CAP_MANIFEST',
  advisories: 'CAP_ADVISORIES',
};

const V2_OF = new Map<string, string>([['identity_providers.scim.manage', 'CAP_IAM_SCIM_MANAGE']]);
for (const name of ALL_CAPABILITIES) {
  const [family, verb] = name.split('.') as [string, string];
  if (!V2_OF.has(name)) V2_OF.set(name, `${V2_FAMILY[family]}_${verb.toUpperCase()}`);
}
const V1_OF = new Map([...V2_OF].map(([v1, v2]) => [v2, v1]));

/** The v2 enum name of a v1 capability (unknown names pass through). */
export function v2Capability(v1: string): string {
  return V2_OF.get(v1) ?? v1;
}

/** The v1 name of a v2 capability enum name, or undefined when it is not one the emulator knows. */
export function v1Capability(v2: string): string | undefined {
  return V1_OF.get(v2);
}
